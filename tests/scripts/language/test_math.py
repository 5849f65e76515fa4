# The math module inside kernels (libdevice on the GPU, libm on the CPU),
# float32 and float64, checked against NumPy on random inputs; math
# constants; isnan/isinf/isfinite; floor/ceil/trunc returning integers.
import math

import numpy as np
from numba import cuda

rng = np.random.default_rng(11)
n = 400
x = rng.uniform(0.1, 0.9, n)
y = rng.uniform(-3, 3, n)
z = rng.uniform(1.5, 4.0, n)


@cuda.jit
def unary64(x, y, z, out):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        c = z[i]
        out[i, 0] = math.sqrt(c)
        out[i, 1] = math.sin(b)
        out[i, 2] = math.cos(b)
        out[i, 3] = math.tan(a)
        out[i, 4] = math.asin(a)
        out[i, 5] = math.acos(a)
        out[i, 6] = math.atan(b)
        out[i, 7] = math.sinh(b)
        out[i, 8] = math.cosh(b)
        out[i, 9] = math.tanh(b)
        out[i, 10] = math.asinh(b)
        out[i, 11] = math.acosh(c)
        out[i, 12] = math.atanh(a)
        out[i, 13] = math.exp(b)
        out[i, 14] = math.expm1(a)
        out[i, 15] = math.log(c)
        out[i, 16] = math.log1p(a)
        out[i, 17] = math.log2(c)
        out[i, 18] = math.log10(c)
        out[i, 19] = math.fabs(b)
        out[i, 20] = math.erf(b)
        out[i, 21] = math.erfc(b)
        out[i, 22] = math.gamma(c)
        out[i, 23] = math.lgamma(c)
        out[i, 24] = math.atan2(b, c)
        out[i, 25] = math.pow(c, b)
        out[i, 26] = math.hypot(b, c)
        out[i, 27] = math.fmod(b, a)
        out[i, 28] = math.copysign(c, b)
        out[i, 29] = math.pi * a + math.e


out = np.zeros((n, 30))
unary64[(n + 63) // 64, 64](x, y, z, out)
from math import erf, erfc, gamma, lgamma  # noqa: E402

ref = np.stack([np.sqrt(z), np.sin(y), np.cos(y), np.tan(x), np.arcsin(x), np.arccos(x), np.arctan(y), np.sinh(y),
                np.cosh(y), np.tanh(y), np.arcsinh(y), np.arccosh(z), np.arctanh(x), np.exp(y), np.expm1(x),
                np.log(z), np.log1p(x), np.log2(z), np.log10(z), np.abs(y), [erf(v) for v in y],
                [erfc(v) for v in y], [gamma(v) for v in z], [lgamma(v) for v in z], np.arctan2(y, z),
                np.power(z, y), np.hypot(y, z), np.fmod(y, x), np.copysign(z, y), np.pi * x + np.e], axis=1)
np.testing.assert_allclose(out, ref, rtol=1e-13, atol=1e-14)

xf = x.astype(np.float32)
yf = y.astype(np.float32)


@cuda.jit
def unary32(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = math.sin(y[i])
        out[i, 1] = math.exp(y[i])
        out[i, 2] = math.sqrt(x[i])
        out[i, 3] = math.log(x[i])
        out[i, 4] = math.atan2(y[i], x[i])


out32 = np.zeros((n, 5), np.float32)
unary32[(n + 63) // 64, 64](xf, yf, out32)
ref32 = np.stack([np.sin(yf), np.exp(yf), np.sqrt(xf), np.log(xf), np.arctan2(yf, xf)], axis=1)
np.testing.assert_allclose(out32, ref32, rtol=2e-6, atol=1e-6)


@cuda.jit
def rounding_and_classes(y, ints, flags):
    i = cuda.grid(1)
    if i < y.size:
        v = y[i] * 10
        ints[i, 0] = math.floor(v)
        ints[i, 1] = math.ceil(v)
        ints[i, 2] = math.trunc(v)
        w = v
        if i % 5 == 0:
            w = math.nan
        elif i % 7 == 0:
            w = math.inf
        flags[i, 0] = math.isnan(w)
        flags[i, 1] = math.isinf(w)
        flags[i, 2] = math.isfinite(w)


ints = np.zeros((n, 3), np.int64)
flags = np.zeros((n, 3), np.bool_)
rounding_and_classes[(n + 63) // 64, 64](y, ints, flags)
v = y * 10
np.testing.assert_array_equal(ints, np.stack([np.floor(v), np.ceil(v), np.trunc(v)], axis=1).astype(np.int64))
idx = np.arange(n)
w = np.where(idx % 5 == 0, np.nan, np.where(idx % 7 == 0, np.inf, v))
np.testing.assert_array_equal(flags, np.stack([np.isnan(w), np.isinf(w), np.isfinite(w)], axis=1))
print("math ok")
