# Nesting through foreign code: a kernel calls a foreign numba-ABI function
# (cu/callback.cu) that calls back a Python device function compiled with
# abi="c" and abi_info={"abi_name": "py_cube_c"}: the C-ABI function is
# defined under that symbol in the kernel's module.
# stdout: foreign calls python ok
import os

import numpy as np
from numba import cuda

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "callback.cu")
cube_plus = cuda.declare_device("ffi_cube_plus", "int32(int32, int32)", link=CU)


@cuda.jit("int32(int32)", device=True, abi="c", abi_info={"abi_name": "py_cube_c"})  # the C prototype
def py_cube(x):
    return x * x * x


@cuda.jit
def k(out, xs, ys):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = cube_plus(xs[i], ys[i]) + py_cube(1)


rng = np.random.default_rng(8)
xs = rng.integers(-500, 500, 256).astype(np.int32)
ys = rng.integers(-500, 500, 256).astype(np.int32)
out = np.zeros(256, np.int32)
k[2, 128](out, xs, ys)
np.testing.assert_array_equal(out, xs * xs * xs + ys + 1)
print("foreign calls python ok")
