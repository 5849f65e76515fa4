# A .cu file whose headers are found only through the extra NVRTC search
# path, set at run time through numba.cuda.config.
# stdout: ffi extra includes ok
import os

import numpy as np
from numba import cuda
from numba.cuda import config

here = os.path.dirname(os.path.abspath(__file__))
config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = ":".join(
    [os.path.join(here, "ffi", "include_a"), os.path.join(here, "ffi", "include_b")])
axpy = cuda.declare_device("axpy", "float32(float32, float32, float32)", link=os.path.join(here, "ffi", "axpy.cu"))


@cuda.jit
def kernel(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = axpy(3.0, x[i], y[i])


rng = np.random.default_rng(6)
x = rng.random(1000, dtype=np.float32)
y = rng.random(1000, dtype=np.float32)
out = np.zeros_like(x)
kernel[8, 128](out, x, y)
np.testing.assert_allclose(out, np.float32(3.0) * x + y, rtol=1e-6)
print("ffi extra includes ok")
