# Complex numbers in kernels: complex64 and complex128 arrays (host and
# device), complex scalar arguments, + - * / ** unary -, == !=, abs,
# .real .imag .conjugate(), complex(a, b), np.complex64 casts, the numba
# promotion rules, device functions taking and returning complex values,
# and the cmath functions, all checked against NumPy/cmath on random data.
# stdout: complex ok
import cmath

import numpy as np
from numba import cuda

rng = np.random.default_rng(7)
n = 300


def rand_c(dtype, lo=-3.0, hi=3.0):
    return (rng.uniform(lo, hi, n) + 1j * rng.uniform(lo, hi, n)).astype(dtype)


def check(name, got, want, rtol, atol=0.0):
    assert got.dtype == want.dtype, f"{name}: dtype {got.dtype} != {want.dtype}"
    if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        bad = np.argmax(np.abs(got - want) - rtol * np.abs(want))
        raise AssertionError(f"{name}: element {bad}: {got.flat[bad]} != {want.flat[bad]}")


@cuda.jit
def arith(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x + y
        out[i, 1] = x - y
        out[i, 2] = x * y
        out[i, 3] = x / y
        out[i, 4] = -x
        out[i, 5] = x * 2.5 - 1
        out[i, 6] = x.conjugate()
        out[i, 7] = x**2
        out[i, 8] = x**-3
        out[i, 9] = (1 + 2j) / x
        acc = x
        acc += y
        acc *= y
        out[i, 10] = acc


for dt, rtol in ((np.complex128, 1e-13), (np.complex64, 2e-6)):
    a = rand_c(dt)
    b = rand_c(dt)
    out = np.zeros((n, 11), dtype=dt)
    arith[(n + 63) // 64, 64](a, b, out)
    ref = np.stack([a + b, a - b, a * b, a / b, -a, a * dt(2.5) - 1, np.conj(a), a**2, a**-3, dt(1 + 2j) / a,
                    (a + b) * b], axis=1).astype(dt)
    check(f"arith {np.dtype(dt).name}", out, ref, rtol=rtol * 4)


@cuda.jit
def parts(a, re, im, mag, eq):
    i = cuda.grid(1)
    if i < a.size:
        z = a[i]
        re[i] = z.real
        im[i] = z.imag
        mag[i] = abs(z)
        w = complex(z.real, z.imag)
        eq[i, 0] = w == z
        eq[i, 1] = w != z
        eq[i, 2] = z == z.real
        eq[i, 3] = z.conjugate() != z


for dt, ft in ((np.complex128, np.float64), (np.complex64, np.float32)):
    a = rand_c(dt)
    a[::7] = a[::7].real  # some purely real values for the == tests
    re = np.zeros(n, ft)
    im = np.zeros(n, ft)
    mag = np.zeros(n, ft)
    eq = np.zeros((n, 4), np.bool_)
    parts[(n + 63) // 64, 64](a, re, im, mag, eq)
    assert np.array_equal(re, a.real) and np.array_equal(im, a.imag), "real/imag"
    check(f"abs {np.dtype(dt).name}", mag, np.abs(a), rtol=1e-6 if ft == np.float32 else 4e-15)
    assert eq[:, 0].all() and not eq[:, 1].any(), "complex(re, im) round trip"
    assert np.array_equal(eq[:, 2], a.imag == 0) and np.array_equal(eq[:, 3], a.imag != 0), "== / != with reals"


# Promotion: complex64 with float32 stays complex64; with float64 or int64 it
# becomes complex128 (checked through the value: float64 precision survives).
@cuda.jit
def promote(c64, f32, f64, i64, out64, out128a, out128b, out128c):
    i = cuda.grid(1)
    if i < c64.size:
        out64[i] = c64[i] * f32[i]
        r = c64[i] * f64[i]
        out128a[i] = r
        out128b[i] = c64[i] + i64[i]
        out128c[i] = 1j * f32[i]


c64 = rand_c(np.complex64)
f32 = rng.uniform(-2, 2, n).astype(np.float32)
f64 = rng.uniform(-2, 2, n) + 1e-9
i64 = rng.integers(-1000, 1000, n)
outs = [np.zeros(n, np.complex64)] + [np.zeros(n, np.complex128) for _ in range(3)]
promote[(n + 63) // 64, 64](c64, f32, f64, i64, *outs)
check("c64*f32", outs[0], c64 * f32, rtol=1e-6)
check("c64*f64", outs[1], c64.astype(np.complex128) * f64, rtol=1e-15)
check("c64+i64", outs[2], c64.astype(np.complex128) + i64, rtol=1e-15)
check("1j*f32", outs[3], 1j * f32.astype(np.float64), rtol=1e-15)


# complex64 * float32 is computed in complex64 even when stored into a
# complex128 array (the float32 rounding shows).
@cuda.jit
def stays64(c64, f32, out128):
    i = cuda.grid(1)
    if i < c64.size:
        out128[i] = c64[i] * f32[i]


o = np.zeros(n, np.complex128)
stays64[(n + 63) // 64, 64](c64, f32, o)
assert np.array_equal(o, (c64 * f32).astype(np.complex128)), "complex64 * float32 must stay complex64"
assert not np.array_equal(o, c64.astype(np.complex128) * f32.astype(np.float64)), "float64 product"


# Local and shared arrays of complex dtype.
@cuda.jit
def scratch(a, out):
    loc = cuda.local.array(3, np.complex128)
    sh = cuda.shared.array(64, np.complex64)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    if i < a.size:
        sh[t] = np.complex64(a[i])
        loc[0] = a[i]
        loc[1] = loc[0] * loc[0]
        loc[2] = 0
        for k in range(2):
            loc[2] += loc[k]
    cuda.syncthreads()
    if i < a.size:
        out[i] = loc[2] + sh[t]


a = rand_c(np.complex128)
o = np.zeros(n, np.complex128)
scratch[(n + 63) // 64, 64](a, o)
check("local/shared", o, a + a * a + a.astype(np.complex64), rtol=1e-13)


# Complex scalars as kernel arguments (Python complex -> complex128, NumPy
# complex64 scalars keep their type), device functions taking and returning
# complex values, np.complex64 casts.
@cuda.jit(device=True)
def axpy(alpha, x, y):
    return alpha * x + y


@cuda.jit
def scalar_args(alpha, beta, x, y, out, out32):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = axpy(alpha, x[i], y[i])
        out32[i] = np.complex64(axpy(beta, x[i], 1.0))


x = rand_c(np.complex128)
y = rand_c(np.complex128)
out = np.zeros(n, np.complex128)
out32 = np.zeros(n, np.complex64)
alpha = 0.75 - 1.25j
beta = np.complex64(2 - 0.5j)
scalar_args[(n + 63) // 64, 64](alpha, beta, x, y, out, out32)
check("axpy", out, alpha * x + y, rtol=1e-14)
check("axpy32", out32, (np.complex128(beta) * x + 1.0).astype(np.complex64), rtol=1e-6)


# Device arrays of complex dtype, 2-d, stored in place.
@cuda.jit
def rotate(m, k):
    i, j = cuda.grid(2)
    if i < m.shape[0] and j < m.shape[1]:
        m[i, j] = m[i, j] * k


m = (rng.standard_normal((20, 30)) + 1j * rng.standard_normal((20, 30))).astype(np.complex64)
dm = cuda.to_device(m)
rotate[(3, 4), (8, 8)](dm, 1j)
check("device 2-d", dm.copy_to_host(), (m * 1j).astype(np.complex64), rtol=1e-6)


# cmath functions.
@cuda.jit
def cm(a, out, ph, pol, flags):
    i = cuda.grid(1)
    if i < a.size:
        z = a[i]
        out[i, 0] = cmath.sqrt(z)
        out[i, 1] = cmath.exp(z)
        out[i, 2] = cmath.log(z)
        out[i, 3] = cmath.log10(z)
        out[i, 4] = cmath.sin(z)
        out[i, 5] = cmath.cos(z)
        out[i, 6] = cmath.tan(z)
        out[i, 7] = cmath.sinh(z)
        out[i, 8] = cmath.cosh(z)
        out[i, 9] = cmath.tanh(z)
        out[i, 10] = cmath.rect(z.real, z.imag)
        out[i, 11] = cmath.log(z, 2.0)
        out[i, 12] = cmath.asin(z)
        out[i, 13] = cmath.acos(z)
        out[i, 14] = cmath.atan(z)
        out[i, 15] = cmath.asinh(z)
        out[i, 16] = cmath.acosh(z)
        out[i, 17] = cmath.atanh(z)
        ph[i] = cmath.phase(z)
        r, p = cmath.polar(z)
        pol[i, 0] = r
        pol[i, 1] = p
        flags[i, 0] = cmath.isnan(z)
        flags[i, 1] = cmath.isinf(z)
        flags[i, 2] = cmath.isfinite(z)


a = rand_c(np.complex128)
a[0] = complex(float("nan"), 1.0)
a[1] = complex(2.0, float("inf"))
a[2] = -4.0 + 0j
out = np.zeros((n, 18), np.complex128)
ph = np.zeros(n)
pol = np.zeros((n, 2))
flags = np.zeros((n, 3), np.bool_)
cm[(n + 63) // 64, 64](a, out, ph, pol, flags)
fin = slice(2, n)
fns = [cmath.sqrt, cmath.exp, cmath.log, cmath.log10, cmath.sin, cmath.cos, cmath.tan, cmath.sinh, cmath.cosh,
       cmath.tanh, lambda z: cmath.rect(z.real, z.imag), lambda z: cmath.log(z, 2.0), cmath.asin, cmath.acos,
       cmath.atan, cmath.asinh, cmath.acosh, cmath.atanh]
for k, f in enumerate(fns):
    want = np.array([f(complex(z)) for z in a[fin]])
    check(f"cmath #{k}", out[fin, k], want, rtol=1e-12, atol=1e-15)
check("phase", ph[fin], np.angle(a[fin]), rtol=1e-14)
check("polar", pol[fin], np.stack([np.abs(a[fin]), np.angle(a[fin])], axis=1), rtol=1e-14)
assert np.array_equal(flags[:, 0], np.isnan(a)), "isnan"
assert np.array_equal(flags[:, 1], np.isinf(a)), "isinf"
assert np.array_equal(flags[:, 2], np.isfinite(a)), "isfinite"
assert out[2, 0] == 2j, out[2, 0]


# complex64 stays complex64 through cmath.
@cuda.jit
def cm32(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = cmath.exp(a[i]) * cmath.sqrt(a[i])


a32 = rand_c(np.complex64, -2, 2)
o32 = np.zeros(n, np.complex64)
cm32[(n + 63) // 64, 64](a32, o32)
check("cmath c64", o32, (np.exp(a32) * np.sqrt(a32)).astype(np.complex64), rtol=2e-5, atol=1e-6)


# Truthiness, and a zero divisor: NaNs (ZeroDivisionError with debug=True: test_complex_debug.py).
@cuda.jit
def truth(a, flags, q):
    i = cuda.grid(1)
    if i < a.size:
        flags[i, 0] = bool(a[i])
        flags[i, 1] = 1 if a[i] else 0
        q[i] = 1 / a[i]


a = rand_c(np.complex128)
a[5] = 0
a[6] = 1j
a[7] = 2.0
flags = np.zeros((n, 2), np.bool_)
q = np.zeros(n, np.complex128)
truth[(n + 63) // 64, 64](a, flags, q)
assert np.array_equal(flags[:, 0], a != 0) and np.array_equal(flags[:, 1], a != 0), "truthiness"
assert np.isnan(q[5].real) and np.isnan(q[5].imag), q[5]
check("1/z", np.delete(q, 5), 1 / np.delete(a, 5), rtol=1e-14)


# NumPy ufuncs on complex scalars mean the cmath functions; on reals they keep
# their math meaning.
@cuda.jit
def npfuncs(a, x, out, mags, reals):
    i = cuda.grid(1)
    if i < a.size:
        z = a[i]
        out[i, 0] = np.sqrt(z)
        out[i, 1] = np.exp(z)
        out[i, 2] = np.log(z)
        out[i, 3] = np.arctan(z)
        out[i, 4] = np.conj(z)
        out[i, 5] = np.conjugate(z) * np.sin(z)
        mags[i] = np.abs(z) + np.absolute(z)
        reals[i, 0] = np.sqrt(x[i])
        reals[i, 1] = np.abs(-x[i])
        reals[i, 2] = np.conj(x[i])
        reals[i, 3] = np.real(z) - np.imag(z) + np.angle(z)
        reals[i, 4] = np.imag(x[i])


a = rand_c(np.complex128)
x = rng.uniform(0.5, 4, n)
out = np.zeros((n, 6), np.complex128)
mags = np.zeros(n)
reals = np.zeros((n, 5))
npfuncs[(n + 63) // 64, 64](a, x, out, mags, reals)
ref = np.stack([np.sqrt(a), np.exp(a), np.log(a), np.arctan(a), np.conj(a), np.conj(a) * np.sin(a)], axis=1)
check("numpy on complex", out, ref, rtol=1e-12, atol=1e-15)
check("np.abs", mags, 2 * np.abs(a), rtol=4e-15)
check("numpy on reals", reals, np.stack([np.sqrt(x), x, x, a.real - a.imag + np.angle(a), 0 * x], axis=1), rtol=1e-15,
      atol=1e-15)
print("complex ok")
