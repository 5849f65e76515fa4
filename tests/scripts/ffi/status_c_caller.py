# C -> numba status edge: a C-ABI device function calling a numba-ABI
# foreign function ignores the status and uses the result slot, whatever
# the status (the numba -> numba half is in status_edges.py).
# stdout: status c caller ok
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


print("status c caller ok")
