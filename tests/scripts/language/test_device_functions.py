# Device functions: @cuda.jit(device=True) and plain @cuda.jit functions
# called from kernels, nested several levels, specialized per argument
# types, returning scalars and tuples, inline=True, and closures over
# constants and other jitted functions.
import numpy as np
from numba import cuda

rng = np.random.default_rng(9)


@cuda.jit(device=True)
def square(v):
    return v * v


@cuda.jit(device=True, inline=True)
def cube(v):
    return v * square(v)


@cuda.jit
def poly(v):  # plain @cuda.jit function used as a device function
    return cube(v) + 2 * square(v) + 1


@cuda.jit(device=True)
def divmod_pair(a, b):
    return a // b, a % b


@cuda.jit(device=True)
def level3(x):
    return x + 1


@cuda.jit(device=True)
def level2(x):
    return level3(x) * 2


@cuda.jit(device=True)
def level1(x):
    return level2(x) - level3(x)


SCALE = 3.5


def make_kernel(offset):
    @cuda.jit
    def kernel(x, ints, out, qr):
        i = cuda.grid(1)
        if i < x.size:
            out[i, 0] = poly(x[i])
            out[i, 1] = poly(ints[i])      # another specialization (int64)
            q, r = divmod_pair(ints[i], 7)
            qr[i, 0] = q
            qr[i, 1] = r
            out[i, 2] = level1(x[i]) * SCALE + offset
    return kernel


x = rng.standard_normal(300)
ints = rng.integers(-100, 100, 300)
out = np.zeros((300, 3))
qr = np.zeros((300, 2), np.int64)
make_kernel(0.25)[10, 32](x, ints, out, qr)
np.testing.assert_allclose(out[:, 0], x ** 3 + 2 * x ** 2 + 1, rtol=1e-12)
np.testing.assert_array_equal(out[:, 1], ints ** 3 + 2 * ints ** 2 + 1)
np.testing.assert_array_equal(qr[:, 0], ints // 7)
np.testing.assert_array_equal(qr[:, 1], ints % 7)
np.testing.assert_allclose(out[:, 2], ((x + 1) * 2 - (x + 1)) * SCALE + 0.25, rtol=1e-12)
print("device functions ok")
