# Each call edge is lowered with the callee's ABI, at any depth: kernels
# (numba ABI) call C-ABI Python device functions, which call numba-ABI
# Python device functions, which call foreign C-ABI and numba-ABI functions,
# and back. Results checked against NumPy on random data.
# stdout: abi nesting ok
import os

import numpy as np
from numba import cuda

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "ops.cu")
hypot2 = cuda.declare_device("ffi_hypot2", "float64(float64, float64)", link=CU, abi="c")
fma3 = cuda.declare_device("ffi_fma3", "float32(float32, float32, float32)", link=CU)
iadd = cuda.declare_device("ffi_iadd", "int32(int32, int32)", link=CU)
is_odd = cuda.declare_device("ffi_is_odd", "boolean(int32)", link=CU, abi="c")


@cuda.jit(device=True)                      # numba ABI -> C foreign
def level3(x, y):
    return hypot2(x, y) + 1.0


@cuda.jit(device=True, abi="c")             # C ABI -> numba Python
def level2(x, y):
    return level3(x, y) * 2.0


@cuda.jit(device=True)                      # numba -> C Python
def level1(x, y):
    return level2(x, y) - 0.5


@cuda.jit(device=True, abi="c", abi_info={"abi_name": "nest_c_top"})   # C -> numba Python -> ...
def level0(x, y):
    return level1(x, y) + fma3(x, y, 1.0)   # C Python -> numba foreign (status ignored)


@cuda.jit
def k(out, xs, ys):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = level0(xs[i], ys[i])


rng = np.random.default_rng(31)
xs = rng.standard_normal(600)
ys = rng.standard_normal(600)
out = np.zeros(600)
k[5, 128](out, xs, ys)
f32 = (xs.astype(np.float32) * ys.astype(np.float32) + np.float32(1)).astype(np.float32)
np.testing.assert_allclose(out, ((xs * xs + ys * ys) + 1.0) * 2.0 - 0.5 + f32, rtol=1e-6)


# Integer and boolean values across C/numba boundaries.
@cuda.jit(device=True, abi="c")
def c_count(a, b):
    s = iadd(a, b)                          # C Python -> numba foreign
    if is_odd(s):                           # C Python -> C foreign returning bool
        return s * 10
    return s


@cuda.jit(device=True)
def n_count(a, b):
    return c_count(a, b) + iadd(a, 0)       # numba Python -> C Python, numba foreign


@cuda.jit
def k2(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = n_count(a[i], b[i])


a = rng.integers(-10000, 10000, 300).astype(np.int32)
b = rng.integers(-10000, 10000, 300).astype(np.int32)
out2 = np.zeros(300, np.int32)
k2[3, 128](out2, a, b)
s = a + b
np.testing.assert_array_equal(out2, np.where(s % 2 != 0, s * 10, s) + a)
print("abi nesting ok")
