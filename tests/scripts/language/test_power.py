# `**` as numba computes it: float ** int by repeated squaring in the float
# type (float32 stays float32; negative exponents invert; math.pow past an
# exponent of 65536), int ** int by squaring with numba's negative-exponent
# rules, float ** float through pow. Checked bit for bit against a Python
# reference of the same algorithm on random data.
# stdout: power: all checks passed
import math

import numpy as np
from numba import cuda

rng = np.random.default_rng(17)


def ref_float_int_power(a, b, f):
    a = f(a)
    r = f(1)
    invert = b < 0
    e = -b if invert else b
    if e > 0x10000:
        return f(math.pow(float(a), float(b)))
    while e:
        if e & 1:
            r = f(r * a)
        e >>= 1
        a = f(a * a)
    return f(f(1) / r) if invert else r


def ref_int_power(a, b):
    if b < 0:
        if a == 1:
            return 1
        if a == -1:
            return -1 if b & 1 else 1
        if a == 0:
            return -(1 << 63)
        return 0
    v = pow(a, b, 1 << 64)
    return v - (1 << 64) if v >= 1 << 63 else v


@cuda.jit
def float_int(x, e, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] ** e[i]


@cuda.jit
def literal_exponents(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i, 0] = x[i] ** 2
        out[i, 1] = x[i] ** 3
        out[i, 2] = x[i] ** -3
        out[i, 3] = x[i] ** 0
        out[i, 4] = x[i] ** 13


n = 300
with np.errstate(all="ignore"):
    for f in (np.float32, np.float64):
        x = (rng.random(n) * 6 - 3).astype(f)
        x[:4] = [0.0, -0.0, 1.0, -1.0]
        e = rng.integers(-40, 41, n).astype(np.int64)
        e[4:8] = [70000, -70001, 65536, -65536]
        x[4:8] = [f(1.00001), f(0.99999), f(1.00001), f(0.99999)]
        for et in (np.int64, np.int32):
            out = np.zeros(n, f)
            float_int[(n + 63) // 64, 64](x, e.astype(et), out)
            ref = np.array([ref_float_int_power(x[i], int(e[i]), f) for i in range(n)], f)
            # Past |e| = 65536 both sides call pow (libm on the CPU, libdevice on a GPU): 1 ulp apart at most.
            via_pow = np.abs(e) > 65536
            np.testing.assert_array_equal(out[~via_pow], ref[~via_pow])
            np.testing.assert_array_max_ulp(out[via_pow], ref[via_pow], maxulp=1)
        out = np.zeros((n, 5), f)
        literal_exponents[(n + 63) // 64, 64](x, out)
        for k, p in enumerate((2, 3, -3, 0, 13)):
            ref = np.array([ref_float_int_power(x[i], p, f) for i in range(n)], f)
            np.testing.assert_array_equal(out[:, k], ref)


@cuda.jit
def int_int(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] ** b[i]


a = rng.integers(-6, 7, n)
b = rng.integers(-3, 30, n)
a[:6] = [0, 0, 1, -1, -1, 3]
b[:6] = [-1, 0, -5, -5, -4, 40]
out = np.zeros(n, np.int64)
int_int[(n + 63) // 64, 64](a, b, out)
np.testing.assert_array_equal(out, [ref_int_power(int(a[i]), int(b[i])) for i in range(n)])


@cuda.jit
def float_float(x, y, out32, x32, y32):
    i = cuda.grid(1)
    if i < x.size:
        out32[i] = x32[i] ** y32[i]
        x[i] = x[i] ** y[i]


x = rng.random(n) * 4
y = rng.random(n) * 6 - 3
x32 = x.astype(np.float32)
y32 = y.astype(np.float32)
ref = np.array([math.pow(x[i], y[i]) for i in range(n)])
out32 = np.zeros(n, np.float32)
float_float[(n + 63) // 64, 64](x, y, out32, x32, y32)
# pow itself: libm on the CPU, libdevice on a GPU (within 1 ulp of each other).
np.testing.assert_array_max_ulp(x, ref, maxulp=1)
np.testing.assert_allclose(out32, np.power(x32, y32), rtol=2e-7)


# Literal integer powers fold at compile time, so they can size arrays.
@cuda.jit
def folded(out):
    buf = cuda.local.array(2 ** 4, np.int64)
    for k in range(buf.shape[0]):
        buf[k] = k
    out[0] = buf.shape[0]
    out[1] = buf[2 ** 3]
    out[2] = (-1) ** 7 + 10 ** 0


out = np.zeros(3, np.int64)
folded[1, 1](out)
np.testing.assert_array_equal(out, [16, 8, 0])
print("power: all checks passed")
