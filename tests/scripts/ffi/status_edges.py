# Status propagation follows the caller's ABI: numba -> numba propagates (a
# foreign error status inside a numba-ABI device function ends the kernel's
# thread, so the kernel's later stores never happen); C -> numba ignores the
# status (the C-ABI caller uses the result slot and goes on).
# stdout: status edges ok
import os

import numpy as np
from numba import cuda

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "ops.cu")
status = cuda.declare_device("ffi_status", "int32(int32, int32)", link=CU)

codes = np.array([0, -2, 1, 5, -1, 0, 9, -2], np.int32)
ok = (codes == 0) | (codes == -2)


# C ABI caller: the status is ignored, the slot's value is used.
@cuda.jit(device=True, abi="c")
def c_caller(code, v):
    return status(code, v) + 1


@cuda.jit
def k_c(out, codes):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = c_caller(codes[i], 10 * i)


out = np.full(8, -99, np.int32)
k_c[1, 8](out, codes)
np.testing.assert_array_equal(out, 10 * np.arange(8) + 1)


# numba ABI caller at depth 2: the error ends the kernel's thread.
@cuda.jit(device=True)
def inner(code, v):
    return status(code, v) + 1


@cuda.jit(device=True)
def outer(code, v):
    return inner(code, v) * 2


@cuda.jit
def k_n(out, after, codes):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = outer(codes[i], 10 * i)
        after[i] = 1


out = np.full(8, -99, np.int32)
after = np.zeros(8, np.int32)
k_n[1, 8](out, after, codes)
np.testing.assert_array_equal(out, np.where(ok, (10 * np.arange(8) + 1) * 2, -99))
np.testing.assert_array_equal(after, ok.astype(np.int32))
print("status edges ok")
