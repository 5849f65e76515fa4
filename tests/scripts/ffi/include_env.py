# NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS from the environment (colon separated,
# relative entries resolved against the working directory) finds headers of
# a .cu link item, on every backend.
# env: NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS=cu/inc_a:cu/inc_b
# stdout: include env ok
import os

import numpy as np
from numba import cuda

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "uses_headers.cu")
so = cuda.declare_device("ffi_scale_offset", "float32(float32)", link=CU)


@cuda.jit
def k(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = so(xs[i])


xs = np.random.default_rng(1).standard_normal(300).astype(np.float32)
out = np.zeros_like(xs)
k[3, 128](out, xs)
np.testing.assert_allclose(out, np.float32(2.5) * xs - np.float32(0.75), rtol=1e-5, atol=1e-6)  # the GPU may contract to an FMA
print("include env ok")
