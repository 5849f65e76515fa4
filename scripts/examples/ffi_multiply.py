# A Python kernel calling a CUDA C function: mul_f32_f32 is declared with
# cuda.declare_device and linked from ffi/functions.cu (compiled by NVRTC on
# the GPU, by the host compiler on the CPU backend).
# stdout: ffi multiply ok
import os

import numpy as np
from numba import cuda

here = os.path.dirname(os.path.abspath(__file__))
mul = cuda.declare_device("mul_f32_f32", "float32(float32, float32)",
                          link=os.path.join(here, "ffi", "functions.cu"))


@cuda.jit
def multiply(result, a, b):
    i = cuda.grid(1)
    if i < len(result):
        result[i] = mul(a[i], b[i])


rng = np.random.default_rng(8)
a = rng.random(10_000, dtype=np.float32)
b = rng.random(10_000, dtype=np.float32)
r = np.zeros_like(a)
multiply[(a.size + 127) // 128, 128](r, a, b)
np.testing.assert_array_equal(r, a * b)
print("ffi multiply ok")
