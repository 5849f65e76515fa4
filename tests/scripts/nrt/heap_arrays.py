# Arrays allocated in kernels under CUDA_ENABLE_NRT (docs/NRT.md): np.empty,
# zeros, ones, their *_like forms and np.arange, filled on random data and
# compared with NumPy; views of heap arrays, device functions that return
# them, and the NRT-off LoweringError.
# stdout: heap arrays ok
import numpy as np
from numba import cuda
from numba.cuda import config
from numba.core.errors import LoweringError

rng = np.random.default_rng(11)
config.CUDA_ENABLE_NRT = True

# np.empty / zeros / ones with run-time shapes, 1-d and 2-d, several dtypes.
@cuda.jit
def constructors(x, n, m, out_e, out_z, out_o, out_i):
    e = np.empty((n, m), np.float32)
    for i in range(n):
        for j in range(m):
            e[i, j] = x[i, j] * 2
    z = np.zeros(n * m)
    o = np.ones((n, m), dtype=np.int32)
    k = np.zeros(m, np.int16)
    for i in range(n):
        for j in range(m):
            out_e[i, j] = e[i, j]
            out_z[i * m + j] = z[i * m + j]
            out_o[i, j] = o[i, j]
    for j in range(m):
        out_i[j] = k[j] + j


n, m = 5, 7
x = rng.standard_normal((n, m)).astype(np.float32)
out_e = np.full((n, m), -1, np.float32)
out_z = np.full(n * m, -1.0)
out_o = np.zeros((n, m), np.int32)
out_i = np.full(m, -5, np.int16)
constructors[1, 1](x, n, m, out_e, out_z, out_o, out_i)
assert np.array_equal(out_e, x * 2)
assert np.array_equal(out_z, np.zeros(n * m))
assert np.array_equal(out_o, np.ones((n, m), np.int32))
assert np.array_equal(out_i, np.arange(m, dtype=np.int16))


# *_like keep the shape (and the dtype unless given).
@cuda.jit
def likes(a, out_s, out_z, out_o):
    s = np.empty_like(a)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s[i, j] = a[i, j] * a[i, j]
    z = np.zeros_like(a)
    o = np.ones_like(a, dtype=np.int64)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out_s[i, j] = s[i, j] + z[i, j]
            out_o[i, j] = o[i, j]
    out_z[0] = z.shape[0] * 100 + z.shape[1]


a = rng.standard_normal((4, 6))
out_s = np.zeros_like(a)
out_z = np.zeros(1, np.int64)
out_o = np.zeros(a.shape, np.int64)
likes[1, 1](a, out_s, out_z, out_o)
assert np.allclose(out_s, a * a)
assert out_z[0] == 406 and np.array_equal(out_o, np.ones(a.shape, np.int64))


# np.arange with integer and float operands, per thread.
@cuda.jit
def aranges(starts, stops, steps, fstart, fstop, fstep, out_i, count_i, out_f, count_f):
    t = cuda.grid(1)
    if t >= starts.size:
        return
    r = np.arange(starts[t], stops[t], steps[t])
    count_i[t] = r.size
    for k in range(r.size):
        out_i[t, k] = r[k]
    f = np.arange(fstart[t], fstop[t], fstep[t])
    count_f[t] = f.size
    for k in range(f.size):
        out_f[t, k] = f[k]


T = 16
starts = rng.integers(-20, 20, T)
stops = rng.integers(-20, 20, T)
steps = rng.choice([-3, -2, -1, 1, 2, 3], T)
fstart = rng.uniform(-5, 5, T)
fstop = rng.uniform(-5, 5, T)
fstep = rng.choice([-0.75, -0.5, 0.25, 0.5, 1.5], T)
out_i = np.zeros((T, 64), np.int64)
count_i = np.zeros(T, np.int64)
out_f = np.zeros((T, 64))
count_f = np.zeros(T, np.int64)
aranges[2, 8](starts, stops, steps, fstart, fstop, fstep, out_i, count_i, out_f, count_f)
for t in range(T):
    want = np.arange(starts[t], stops[t], steps[t])
    assert count_i[t] == want.size and np.array_equal(out_i[t, : want.size], want), t
    wf = np.arange(fstart[t], fstop[t], fstep[t])
    assert count_f[t] == wf.size and np.allclose(out_f[t, : wf.size], wf), t


@cuda.jit
def arange_forms(out):
    a = np.arange(6)
    b = np.arange(2, 8)
    c = np.arange(5 * 1.0)
    d = np.arange(3, dtype=np.float32)
    for k in range(6):
        out[0, k] = a[k]
        out[1, k] = b[k]
    for k in range(5):
        out[2, k] = c[k]
    for k in range(3):
        out[3, k] = d[k]


out = np.zeros((4, 6))
arange_forms[1, 1](out)
assert np.array_equal(out[0], np.arange(6)) and np.array_equal(out[1], np.arange(2, 8))
assert np.array_equal(out[2, :5], np.arange(5.0)) and np.array_equal(out[3, :3], np.arange(3.0))


# Device functions returning heap arrays and views of them.
@cuda.jit(device=True)
def make_squares(v):
    r = np.empty(v.size)
    for i in range(v.size):
        r[i] = v[i] * v[i]
    return r


@cuda.jit(device=True)
def tail(v, k):
    return v[k:]


@cuda.jit
def returned(v, k, out):
    sq = make_squares(v)
    t = tail(sq, k)
    for i in range(t.size):
        out[i] = t[i]
    rows = np.arange(12).reshape((3, 4))
    for row in rows:
        out[v.size - k] += row[1]


v = rng.standard_normal(9)
k = 3
out = np.zeros(v.size - k + 1)
returned[1, 1](v, k, out)
assert np.allclose(out[:-1], (v * v)[k:]) and out[-1] == 1 + 5 + 9


# With the NRT off, allocation in a kernel is numba-cuda's LoweringError.
config.CUDA_ENABLE_NRT = False


@cuda.jit
def no_nrt(out):
    t = np.empty(3)
    out[0] = t.size


try:
    no_nrt[1, 1](np.zeros(1))
except LoweringError as e:
    assert "NRT required but not enabled" in str(e), e
else:
    raise AssertionError("np.empty without the NRT compiled")
print("heap arrays ok")
