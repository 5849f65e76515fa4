# datetime64 / timedelta64 in kernels: arrays and scalar arguments of
# several units, datetime - datetime, datetime +/- timedelta, timedelta
# arithmetic (scaling by ints and floats, / and // between timedeltas),
# operands of different units meeting in the finer one, comparisons, NaT
# propagating through arithmetic and comparing unequal, stores into arrays
# of another unit (rescaled), and a vectorize/guvectorize ufunc on dates.
# Everything is checked against NumPy on random data.
# stdout: datetime ok
import numpy as np
from numba import cuda, vectorize, guvectorize
from numba.cuda.np.numpy_support import from_dtype

rng = np.random.default_rng(8)
n = 200
days = np.datetime64("2001-01-01") + rng.integers(-5000, 5000, n).astype("timedelta64[D]")
secs = np.datetime64("2001-01-01T00:00:00") + rng.integers(-10**9, 10**9, n).astype("timedelta64[s]")
deltas = rng.integers(-10**6, 10**6, n).astype("timedelta64[h]")
days[7] = np.datetime64("NaT")
secs[11] = np.datetime64("NaT")
deltas[13] = np.timedelta64("NaT")


@cuda.jit
def arith(d, s, td, k, f, out_td, out_dt, out_f, out_i, out_b, out_scaled):
    i = cuda.grid(1)
    if i < d.size:
        out_td[i, 0] = s[i] - d[i]          # seconds
        out_td[i, 1] = td[i] * k             # hours, by an int
        out_td[i, 2] = td[i] * f             # by a float (truncated)
        out_td[i, 3] = td[i] // 3
        out_td[i, 4] = -td[i]
        out_dt[i, 0] = d[i] + td[i]          # hours
        out_dt[i, 1] = s[i] - td[i]          # seconds
        out_f[i] = (s[i] - d[i]) / td[i]
        out_i[i] = (s[i] - d[i]) // td[i]
        out_b[i, 0] = d[i] < s[i]
        out_b[i, 1] = d[i] == d[i]
        out_b[i, 2] = td[i] != td[i]
        out_b[i, 3] = td[i] >= k * td[i]
        out_scaled[i] = s[i]                 # into a datetime64[D] array: floored


out_td = np.zeros((n, 5), "timedelta64[s]")
out_dt = np.zeros((n, 2), "datetime64[s]")
out_f = np.zeros(n)
out_i = np.zeros(n, np.int64)
out_b = np.zeros((n, 4), np.bool_)
out_scaled = np.zeros(n, "datetime64[D]")
arith[(n + 63) // 64, 64](days, secs, deltas, 3, 2.5, out_td, out_dt, out_f, out_i, out_b, out_scaled)

with np.errstate(all="ignore"):
    want_td = np.stack([secs - days, deltas * 3, (deltas.astype(np.int64) * 2.5).astype("timedelta64[h]"),
                        deltas // 3, -deltas], axis=1).astype("timedelta64[s]")
    want_td[13, 2] = np.timedelta64("NaT")
    assert np.array_equal(out_td, want_td, equal_nan=True), np.argwhere((out_td != want_td) & ~np.isnat(want_td))
    want_dt = np.stack([days + deltas, secs - deltas], axis=1).astype("datetime64[s]")
    assert np.array_equal(out_dt, want_dt, equal_nan=True)
    ratio = (secs - days) / deltas
    assert np.allclose(out_f, ratio, equal_nan=True)
    floor = (secs - days) // deltas
    ok = ~np.isnat(secs - days) & ~np.isnat(deltas)
    assert np.array_equal(out_i[ok], floor[ok]) and (out_i[~ok] == 0).all()
    assert np.array_equal(out_b[:, 0], days < secs)
    assert np.array_equal(out_b[:, 1], days == days)
    assert np.array_equal(out_b[:, 2], deltas != deltas)
    assert np.array_equal(out_b[:, 3], deltas >= 3 * deltas)
    assert np.array_equal(out_scaled, secs.astype("datetime64[D]"), equal_nan=True)


@cuda.jit
def scalars(d, target, delta, matches, shifted):
    i = cuda.grid(1)
    if i < d.size:
        matches[i] = d[i] == target
        shifted[i] = d[i] - delta


matches = np.zeros(n, np.bool_)
shifted = np.zeros(n, "datetime64[D]")
scalars[(n + 63) // 64, 64](days, days[5], np.timedelta64(3, "D"), matches, shifted)
assert np.array_equal(matches, days == days[5])
assert np.array_equal(shifted, days - np.timedelta64(3, "D"), equal_nan=True)

datetime_t = from_dtype(np.dtype("datetime64[D]"))
timedelta_t = from_dtype(np.dtype("timedelta64[D]"))
assert str(datetime_t) == "datetime64[D]" and str(timedelta_t) == "timedelta64[D]"


@vectorize([(datetime_t, datetime_t)], target="cuda")
def span(start, end):
    return end - start


@guvectorize([(datetime_t, datetime_t, timedelta_t[:])], "(),()->()", target="cuda")
def gspan(start, end, out):
    out[0] = end - start


later = days + rng.integers(0, 1000, n).astype("timedelta64[D]")
assert np.array_equal(span(days, later), later - days, equal_nan=True)
assert np.array_equal(gspan(days, later), later - days, equal_nan=True)
print("datetime ok")
