# Kernels calling @cuda.jit(device=True) functions: defined before or after
# the kernel, nested, with a C-ABI device function; a CPointer kernel
# parameter taking a plain integer address. Checked against NumPy.
# stdout: device functions ok
import numpy as np
from numba import cuda


@cuda.jit(device=True)
def square(x):
    return x * x


@cuda.jit
def k(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = poly(x[i])  # defined below: resolved when k first compiles


@cuda.jit(device=True)
def poly(x):
    return square(x) + 2 * x + 1


@cuda.jit(device=True, abi="c", abi_info={"abi_name": "twice_c"})
def twice(x):
    return x + x


@cuda.jit
def k2(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = twice(x[i])


rng = np.random.default_rng(21)
x = rng.standard_normal(300)
out = np.zeros_like(x)
k[3, 128](out, x)
np.testing.assert_allclose(out, x * x + 2 * x + 1, rtol=1e-12, atol=1e-14)  # a GPU may use fma
out2 = np.zeros_like(x)
k2[3, 128](out2, x)
np.testing.assert_allclose(out2, 2 * x)

if cuda.backend() == "cpu":
    # On the CPU device memory is host memory: a NumPy buffer's address works as a pointer.
    @cuda.jit("void(CPointer(int64), int64)")
    def fill_ptr(p, n):
        i = cuda.grid(1)
        if i < n:
            p[i] = i * 3

    buf = np.zeros(50, np.int64)
    fill_ptr[1, 64](buf.ctypes.data, buf.size)
    np.testing.assert_array_equal(buf, np.arange(50) * 3)
print("device functions ok")
