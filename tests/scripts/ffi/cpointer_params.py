# Kernels with CPointer parameters (explicit signature): the host passes an
# integer address (a device array's __cuda_array_interface__ data pointer),
# the kernel indexes the pointer and hands it on to foreign C code.
# stdout: cpointer params ok
import os

import numpy as np
from numba import cuda, types

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "ops.cu")
scale = cuda.declare_device("ffi_scale_inplace", "void(CPointer(float32), int32, float32)", link=CU, abi="c")
fsum = cuda.declare_device("ffi_sum", "float32(CPointer(float32), int32)", link=CU)


@cuda.jit("void(CPointer(float32), CPointer(float32), int64)")
def axpy_ptr(y, x, n):
    i = cuda.grid(1)
    if i < n:
        y[i] = 2.0 * x[i] + y[i]


@cuda.jit(types.void(types.CPointer(types.float32), types.int32, types.CPointer(types.float32)))
def foreign_ptr(p, n, total):
    if cuda.grid(1) == 0:
        scale(p, n, -3.0)
        total[0] = fsum(p, n)


rng = np.random.default_rng(12)
x = rng.random(1000, dtype=np.float32)
y = rng.random(1000, dtype=np.float32)
dx = cuda.to_device(x)
dy = cuda.to_device(y)
addr = lambda d: d.__cuda_array_interface__["data"][0]
assert isinstance(addr(dx), int)
axpy_ptr[8, 128](addr(dy), addr(dx), 1000)
np.testing.assert_allclose(dy.copy_to_host(), 2 * x + y, rtol=1e-6)

dt = cuda.to_device(np.zeros(1, np.float32))
foreign_ptr[1, 32](addr(dx), 1000, addr(dt))
np.testing.assert_allclose(dx.copy_to_host(), x * np.float32(-3.0), rtol=1e-6)
np.testing.assert_allclose(dt.copy_to_host()[0], (x * np.float32(-3.0)).sum(), rtol=1e-4)
print("cpointer params ok")
