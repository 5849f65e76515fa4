# Device math beyond cuda.libdevice, on random data against Python/NumPy:
# math.frexp/modf/ldexp (libdevice's on both targets), nextafter,
# remainder, degrees, radians; min/max of two floats as fmin/fmax (a NaN
# operand yields the other); pow(); the operator module's binary functions;
# int.bit_count(); round(x, n) including scales that overflow.
import math
import operator

import numpy as np
from numba import cuda

rng = np.random.default_rng(29)
n = 300
x = rng.uniform(-50, 50, n)
y = rng.uniform(0.5, 20, n) * rng.choice([-1.0, 1.0], n)
e = rng.integers(-20, 20, n).astype(np.int32)


@cuda.jit
def unary(frac, exp, mfrac, mwhole, ld, na, rem, deg, rad, x, y, e):
    i = cuda.grid(1)
    if i < x.size:
        frac[i], exp[i] = math.frexp(x[i])
        mfrac[i], mwhole[i] = math.modf(x[i])
        ld[i] = math.ldexp(x[i], e[i])
        na[i] = math.nextafter(x[i], y[i])
        rem[i] = math.remainder(x[i], y[i])
        deg[i] = math.degrees(x[i])
        rad[i] = math.radians(x[i])


for dtype in (np.float64, np.float32):
    xs, ys = x.astype(dtype), y.astype(dtype)
    outs = [np.zeros(n, dtype) for _ in range(9)]
    outs[1] = np.zeros(n, np.int32)
    unary[(n + 63) // 64, 64](*outs, xs, ys, e)
    frac, exp, mfrac, mwhole, ld, na, rem, deg, rad = outs
    f2, e2 = np.frexp(xs)
    assert np.array_equal(frac, f2) and np.array_equal(exp, e2), dtype
    m1, m2 = np.modf(xs)
    assert np.array_equal(mfrac, m1) and np.array_equal(mwhole, m2), dtype
    assert np.array_equal(ld, np.ldexp(xs, e)), dtype
    assert np.array_equal(na, np.nextafter(xs, ys)), dtype
    # remainder is exact in either precision.
    assert np.array_equal(rem, np.vectorize(math.remainder)(xs, ys).astype(dtype)), dtype
    assert np.allclose(deg, np.degrees(xs), rtol=1e-6), dtype
    assert np.allclose(rad, np.radians(xs), rtol=1e-6), dtype

# frexp of the special values: the GPU's (inf, 0) and (nan, 0), on both targets.
special = np.array([np.inf, -np.inf, np.nan, 0.0])
frac, exp = np.zeros(4), np.zeros(4, np.int32)
unary[1, 4](frac, exp, *[np.zeros(4) for _ in range(7)], special, np.ones(4), np.zeros(4, np.int32))
assert np.array_equal(frac, special, equal_nan=True) and list(exp) == [0, 0, 0, 0], (frac, exp)


@cuda.jit
def binary(lo, hi, pw, pwi, div, fdiv, mod, ints, x, y, e):
    i = cuda.grid(1)
    if i < x.size:
        lo[i] = min(x[i], y[i])
        hi[i] = max(x[i], y[i])
        pw[i] = pow(abs(x[i]), y[i])
        pwi[i] = pow(x[i], e[i] % 5)
        div[i] = operator.truediv(x[i], y[i])
        fdiv[i] = operator.floordiv(x[i], y[i])
        mod[i] = operator.mod(x[i], y[i])
        k = e[i] * 1000003
        ints[i] = k.bit_count() + operator.lshift(e[i], 2) + operator.xor(e[i], 7) + operator.mul(e[i], 3)


xn = x.copy()
xn[::7] = np.nan
outs = [np.zeros(n) for _ in range(7)] + [np.zeros(n, np.int64)]
binary[(n + 63) // 64, 64](*outs, xn, y, e)
lo, hi, pw, pwi, div, fdiv, mod, ints = outs
assert np.array_equal(lo, np.fmin(xn, y)) and np.array_equal(hi, np.fmax(xn, y))
assert not np.isnan(lo).any()
ok = ~np.isnan(xn)
assert np.allclose(pw[ok], np.abs(xn[ok]) ** y[ok], rtol=1e-14)
assert np.allclose(pwi[ok], xn[ok] ** (e[ok] % 5), rtol=1e-14)
assert np.array_equal(div[ok], xn[ok] / y[ok])
assert np.array_equal(fdiv[ok], xn[ok] // y[ok]) and np.array_equal(mod[ok], xn[ok] % y[ok])
want = [bin(abs(int(v) * 1000003)).count("1") + (int(v) << 2) + (int(v) ^ 7) + int(v) * 3 for v in e]
assert list(ints) == want


@cuda.jit
def rounding(out, x, nd):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = round(x[i], nd[i])


vals = rng.random(n) * 10.0 ** rng.integers(-3, 4, n)
nd = rng.integers(-3, 6, n).astype(np.int32)
out = np.zeros(n)
rounding[(n + 63) // 64, 64](out, vals, nd)
assert list(out) == [round(v, int(d)) for v, d in zip(vals, nd)]
# A scale past float64's range leaves the value unchanged (numba-cuda's rule).
big = np.array([np.finfo(np.float64).max, 1.5, np.inf])
out = np.zeros(3)
rounding[1, 3](out, big, np.array([300, 400, 2], np.int32))
assert list(out) == [np.finfo(np.float64).max, 1.5, np.inf], out
print("math builtins ok")
# stdout: math builtins ok
