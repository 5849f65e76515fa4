# Integer and float arithmetic with numba's typing rules, checked against
# Python/NumPy on random data: floor division and modulo with negative
# operands, true division, powers, bitwise operators and shifts, mixed
# int/float, int64/uint64 mixing, float32 staying float32.
import numpy as np
from numba import cuda

rng = np.random.default_rng(1234)
n = 1000
a = rng.integers(-1000, 1000, n).astype(np.int64)
b = rng.integers(-50, 50, n).astype(np.int64)
b[b == 0] = 7
x = rng.standard_normal(n).astype(np.float64) * 10
y = rng.standard_normal(n).astype(np.float64) * 3 + 0.5


@cuda.jit
def int_ops(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        p = a[i]
        q = b[i]
        out[i, 0] = p + q
        out[i, 1] = p - q
        out[i, 2] = p * q
        out[i, 3] = p // q
        out[i, 4] = p % q
        out[i, 5] = p & q
        out[i, 6] = p | q
        out[i, 7] = p ^ q
        out[i, 8] = ~p
        out[i, 9] = -p
        out[i, 10] = p << 3
        out[i, 11] = p >> 2
        out[i, 12] = abs(q)
        out[i, 13] = min(p, q)
        out[i, 14] = max(p, q, 17)


out = np.zeros((n, 15), np.int64)
int_ops[(n + 127) // 128, 128](a, b, out)
ref = np.stack([a + b, a - b, a * b, a // b, a % b, a & b, a | b, a ^ b, ~a, -a, a << 3, a >> 2, np.abs(b),
                np.minimum(a, b), np.maximum(np.maximum(a, b), 17)], axis=1)
np.testing.assert_array_equal(out, ref)


@cuda.jit
def float_ops(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        u = x[i]
        v = y[i]
        out[i, 0] = u + v
        out[i, 1] = u - v
        out[i, 2] = u * v
        out[i, 3] = u / v
        out[i, 4] = u // v
        out[i, 5] = u % v
        out[i, 6] = abs(u) ** 0.5
        out[i, 7] = -u
        out[i, 8] = u * 2 + 1
        out[i, 9] = v ** 2
        out[i, 10] = min(u, v)
        out[i, 11] = round(u)


fout = np.zeros((n, 12), np.float64)
float_ops[(n + 127) // 128, 128](x, y, fout)
fref = np.stack([x + y, x - y, x * y, x / y, x // y, np.mod(x, y), np.abs(x) ** 0.5, -x, x * 2 + 1, y ** 2,
                 np.minimum(x, y), np.round(x)], axis=1)
np.testing.assert_allclose(fout, fref, rtol=1e-12, atol=1e-12)


@cuda.jit
def int_true_division_and_mixing(a, b, x, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = a[i] / b[i]          # int / int -> float64
        out[i, 1] = a[i] + x[i]          # int64 + float64 -> float64
        out[i, 2] = a[i] * 0.5           # literal float
        out[i, 3] = (a[i] // 3) % 5      # chained int ops stay integral
        out[i, 4] = float(a[i]) / 3
        out[i, 5] = int(x[i])            # truncation toward zero


mout = np.zeros((n, 6), np.float64)
int_true_division_and_mixing[(n + 127) // 128, 128](a, b, x, mout)
mref = np.stack([a / b, a + x, a * 0.5, (a // 3) % 5, a / 3, np.trunc(x)], axis=1)
np.testing.assert_allclose(mout, mref, rtol=1e-15)


# float32 op float32 stays float32 (bit for bit with NumPy's float32
# arithmetic; on a GPU x * y + x may also be one fma, rounded once, as in
# CUDA C and numba-cuda).
xf = x.astype(np.float32)
yf = y.astype(np.float32)


@cuda.jit
def f32_ops(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = x[i] * y[i] + x[i]
        out[i, 1] = x[i] / y[i]
        out[i, 2] = x[i] - y[i] * y[i]


f32 = np.zeros((n, 3), np.float32)
f32_ops[(n + 127) // 128, 128](xf, yf, f32)
def fused(p, q, r):
    """fma(p, q, r) in float32: the float32 product is exact in float64."""
    return (p.astype(np.float64) * q + r).astype(np.float32)


def equal_fused_or_not(got, unfused, fused_value):
    ok = (got == unfused) | (got == fused_value)
    assert ok.all(), (got[~ok][:5], unfused[~ok][:5], fused_value[~ok][:5])


equal_fused_or_not(f32[:, 0], xf * yf + xf, fused(xf, yf, xf))
np.testing.assert_array_equal(f32[:, 1], xf / yf)
equal_fused_or_not(f32[:, 2], xf - yf * yf, fused(-yf, yf, xf))


# unsigned arithmetic and int64/uint64 mixing (-> float64 in numba)
ua = rng.integers(0, 2**40, n).astype(np.uint64)
ub = rng.integers(1, 2**20, n).astype(np.uint64)


@cuda.jit
def unsigned_ops(ua, ub, a, out_u, out_f):
    i = cuda.grid(1)
    if i < ua.size:
        out_u[i, 0] = ua[i] + ub[i]
        out_u[i, 1] = ua[i] // ub[i]
        out_u[i, 2] = ua[i] % ub[i]
        out_u[i, 3] = ua[i] >> 3
        out_f[i] = ua[i] + a[i]


out_u = np.zeros((n, 4), np.uint64)
out_f = np.zeros(n, np.float64)
unsigned_ops[(n + 127) // 128, 128](ua, ub, a, out_u, out_f)
np.testing.assert_array_equal(out_u, np.stack([ua + ub, ua // ub, ua % ub, ua >> np.uint64(3)], axis=1))
np.testing.assert_allclose(out_f, ua.astype(np.float64) + a.astype(np.float64))
print("arith ok")
