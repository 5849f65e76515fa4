# Passing array data to C: sum_reduce takes a float pointer, so the kernel
# hands it ffi.from_buffer(array) (cffi's FFI, or cuda.ffi without cffi).
# stdout: ffi sum_reduce ok
import os

import numpy as np
from numba import cuda, types

try:
    import cffi
    ffi = cffi.FFI()
except ImportError:
    ffi = cuda.ffi

here = os.path.dirname(os.path.abspath(__file__))
sig = types.float32(types.CPointer(types.float32), types.int32)
sum_reduce = cuda.declare_device("sum_reduce", sig, link=os.path.join(here, "ffi", "functions.cu"))


@cuda.jit
def reduce_all(result, values):
    if cuda.grid(1) == 0:
        result[0] = sum_reduce(ffi.from_buffer(values), len(values))


values = np.random.default_rng(4).random(1000, dtype=np.float32)
result = np.zeros(1, np.float32)
reduce_all[1, 32](result, values)
np.testing.assert_allclose(result[0], values.sum(), rtol=1e-5)
print("ffi sum_reduce ok")
