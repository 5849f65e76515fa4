# numba.njit functions called on the host run compiled for the CPU: scalars,
# complex numbers, booleans, NumPy arrays of any layout mutated in place,
# tuples in and out, None, keyword and default arguments, calls between
# njit functions and recursion, checked against the Python functions on
# random data.
# stdout: njit calls ok
import enum
import math

import numpy as np
from numba import njit

rng = np.random.default_rng(7)


def poly(x, y):
    return 3 * x * x - 2 * y + 1


def mixed(a, b, flag):
    if flag:
        return a * b + 0.5
    return a - b


def cplx(z, w):
    return z * w.conjugate() + abs(z)


def fill(a, value):
    for i in range(a.shape[0]):
        a[i] = value * i


def scale2d(a, s):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = a[i, j] * s + i - j


def total(a):
    t = 0.0
    for i in range(a.size):
        t += a[i]
    return t


def swap(t):
    return t[1], t[0]


def nested(t):
    (a, b), c = t
    return a + b * c, (c, a)


def nothing(a):
    a[0] = 1


def keywords(a, b=2, c=3.5):
    return a * b + c


pairs = [(poly, (int(rng.integers(-1000, 1000)), int(rng.integers(-1000, 1000)))) for _ in range(5)]
pairs += [(poly, (float(rng.normal()), float(rng.normal()))) for _ in range(5)]
pairs += [(mixed, (float(rng.normal()), int(rng.integers(-9, 9)), bool(k % 2))) for k in range(6)]
pairs += [(cplx, (complex(*rng.normal(size=2)), complex(*rng.normal(size=2)))) for _ in range(4)]
pairs += [(swap, ((1, 2.5),)), (nested, (((1, 2), 3),)), (nested, (((1.5, 2), 4),))]
for py, args in pairs:
    got = njit(py)(*args)
    want = py(*args)
    assert type(got) is type(want), (py.__name__, args, got, want)
    if isinstance(want, float):
        assert math.isclose(got, want, rel_tol=1e-12), (py.__name__, args, got, want)
    else:
        assert got == want, (py.__name__, args, got, want)

# NumPy scalars type as their dtype.
assert njit(poly)(np.int32(3), np.int32(4)) == poly(3, 4)
assert isinstance(njit(lambda x: x + np.float32(1))(np.float32(1.5)), float)

# Arrays of several dtypes and layouts are mutated in place.
for dtype in (np.float64, np.float32, np.int64, np.int32, np.uint8):
    a = np.zeros(17, dtype=dtype)
    b = a.copy()
    njit(fill)(a, 3)
    fill(b, 3)
    np.testing.assert_array_equal(a, b)

m = rng.normal(size=(6, 9))
for make in (lambda x: x, lambda x: x.T, lambda x: x[::2, 1::3], lambda x: x[::-1]):
    got, want = m.copy(), m.copy()
    njit(scale2d)(make(got), 2.0)
    scale2d(make(want), 2.0)
    np.testing.assert_allclose(got, want)

v = rng.normal(size=100)
assert math.isclose(njit(total)(v), total(v), rel_tol=1e-12)
assert math.isclose(njit(total)(v[::3]), total(v[::3]), rel_tol=1e-12)

# An array result that is a view of an argument is a NumPy view of it.
base = np.arange(10.0)
tail = njit(lambda a: a[2::2])(base)
np.testing.assert_array_equal(tail, base[2::2])
tail[0] = -1.0
assert base[2] == -1.0

a = np.zeros(3, dtype=np.int64)
assert njit(nothing)(a) is None and a[0] == 1
kw = njit(keywords)
assert kw(2) == keywords(2) and kw(2, c=1.0) == keywords(2, c=1.0) and kw(b=4, a=1) == keywords(b=4, a=1)


# Records are passed by reference and returned as NumPy records; IntEnum
# members are integers; None and optional results.
rec_t = np.dtype([("a", np.int32), ("b", np.float64)], align=True)
recs = np.zeros(4, dtype=rec_t)


@njit
def set_rec(r, k):
    r.a = k
    r.b = k * 0.5


set_rec(recs[1], 7)
assert recs[1]["a"] == 7 and recs[1]["b"] == 3.5 and recs[0]["a"] == 0
got = njit(lambda arr, i: arr[i])(recs, 1)
assert got["a"] == 7 and got["b"] == 3.5


class Shape(enum.IntEnum):
    circle = 1
    square = 2


@njit
def area(kind, x):
    if kind == Shape.circle:
        return 3.0 * x * x
    return x * x


assert area(Shape.square, 2.0) == 4.0 and area(Shape.circle, 2.0) == 12.0


@njit
def positive(x):
    if x > 0:
        return x
    return None


assert positive(3) == 3 and positive(-1) is None
assert njit(lambda x: x)(None) is None
for value in (np.uint64(2**64 - 1), np.int8(-3), True, np.float16(1.5), np.complex64(1 + 2j)):
    back = njit(lambda x: x)(value)
    assert back == value, (back, value)

fm = njit(fastmath=True, cache=True, error_model="numpy", boundscheck=False)(total)
assert math.isclose(fm(v), total(v), rel_tol=1e-9)

# Calls between njit functions and recursion.
@njit
def square(x):
    return x * x


@njit
def hyp(a, b):
    return math.sqrt(square(a) + square(b))


@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


assert hyp(3.0, 4.0) == 5.0
assert fib(20) == 6765


# The same function stays callable from kernels.
from numba import cuda  # noqa: E402


@cuda.jit
def kernel(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = hyp(float(i), 1.0) + fib(i % 10)


out = np.zeros(32)
kernel[1, 32](out)
np.testing.assert_allclose(out, [math.hypot(i, 1.0) + fib(i % 10) for i in range(32)])
print("njit calls ok")
