# The C ABI both ways: a kernel calls a plain C function (lerp_f32), and a
# Python device function is compiled as a C-callable function for foreign
# code (cuda.compile with abi="c").
# stdout: ffi c abi ok
import os

import numpy as np
from numba import cuda

here = os.path.dirname(os.path.abspath(__file__))
lerp = cuda.declare_device("lerp_f32", "float32(float32, float32, float32)",
                           link=os.path.join(here, "ffi", "functions.cu"), abi="c")


@cuda.jit
def blend(out, a, b, t):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = lerp(a[i], b[i], t)


rng = np.random.default_rng(10)
a = rng.random(500, dtype=np.float32)
b = rng.random(500, dtype=np.float32)
out = np.zeros_like(a)
blend[4, 128](out, a, b, np.float32(0.25))
np.testing.assert_allclose(out, a + np.float32(0.25) * (b - a), rtol=1e-6)


def hypot2(x, y):
    return x * x + y * y


ptx, resty = cuda.compile(hypot2, "float32(float32, float32)", device=True, abi="c",
                          abi_info={"abi_name": "hypot2_c"}, output="ptx")
assert ".visible .func (.param .b32 func_retval0) hypot2_c(" in ptx, ptx[:400]
print("C-callable PTX for hypot2_c:", len(ptx), "bytes, returns", resty)
print("ffi c abi ok")
