# complex() with *arguments: complex(*cmath.polar(z)) rebuilds z, and a
# `*tuple` may give both parts or follow a plain argument; the tuple is
# evaluated once. Checked against Python's complex() on random data; too
# many items and non-numbers are typing errors.
# stdout: complex unpacking ok
import cmath

import numpy as np
from numba import cuda
from numba.core.errors import TypingError


@cuda.jit(device=True)
def bump(counter):
    cuda.atomic.add(counter, 0, 1)
    return 2.0, -1.5


@cuda.jit
def kernel(z, xs, out, counter):
    i = cuda.grid(1)
    if i < z.size:
        out[i, 0] = complex(*cmath.polar(z[i]))
        out[i, 1] = complex(*(xs[i], 1.0))
        out[i, 2] = complex(xs[i], *(2.5,))
        out[i, 3] = complex(*(xs[i],))
        out[i, 4] = complex(*bump(counter))


rng = np.random.default_rng(5)
n = 100
z = rng.normal(size=n) + 1j * rng.normal(size=n)
xs = rng.normal(size=n)
out = np.zeros((n, 5), np.complex128)
counter = np.zeros(1, np.int64)
kernel[4, 32](z, xs, out, counter)
for i in range(n):
    expect = [complex(*cmath.polar(z[i])), complex(xs[i], 1.0), complex(xs[i], 2.5), complex(xs[i]), 2 - 1.5j]
    assert np.allclose(out[i], expect, rtol=1e-12, atol=1e-12), (i, out[i], expect)
assert counter[0] == n  # each *tuple evaluated once

f32 = np.zeros(1, np.complex64)


@cuda.jit
def single(o, a, b):
    o[0] = complex(*(a, b))


single[1, 1](f32, np.float32(1.5), np.float32(-2.0))
assert f32[0] == np.complex64(1.5 - 2j)


def typing_error(fn, *args):
    try:
        cuda.jit(fn)[1, 1](*args)
    except TypingError as e:
        return str(e)
    raise AssertionError("no TypingError")


def three(o):
    o[0] = complex(*(1.0, 2.0, 3.0))


assert "complex() takes at most 2 arguments (3 given)" in typing_error(three, out[0])


def not_tuple(o, x):
    o[0] = complex(*x)


assert "*arguments of a call must be a tuple, not float64" in typing_error(not_tuple, out[0], 1.0)
print("complex unpacking ok")
