# A kernel calling foreign CUDA C: declare_device with a .cu file on disk and
# with an in-memory CUSource, linked through NVRTC and nvJitLink, loaded and
# run; results checked against NumPy on random data.
# backends: cuda
# stdout: gpu link ok
import os
import tempfile

import numpy as np
from numba import cuda

src = r'''
extern "C" __device__ int scale_add(float* ret, float x, float y) {
  *ret = 3.0f * x + y;
  return 0;
}
'''
path = os.path.join(tempfile.mkdtemp(), "scale_add.cu")
with open(path, "w") as f:
    f.write(src)

scale_add = cuda.declare_device("scale_add", "float32(float32, float32)", link=path)
mul_c = cuda.declare_device("mul_c", "float32(float32, float32)", abi="c",
                            link=cuda.CUSource('extern "C" __device__ float mul_c(float a, float b) { return a * b; }',
                                               name="mul_c.cu"))


@cuda.jit
def k(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = mul_c(scale_add(x[i], y[i]), 2.0)


rng = np.random.default_rng(9)
x = rng.standard_normal(1000).astype(np.float32)
y = rng.standard_normal(1000).astype(np.float32)
out = np.zeros_like(x)
k[4, 256](out, x, y)
np.testing.assert_allclose(out, (3 * x + y) * 2, rtol=1e-5, atol=1e-6)  # NVRTC may fuse 3*x+y

bad = cuda.declare_device("nothere", "float32(float32)", link="/nonexistent/dir/nothere.cu")


@cuda.jit
def k2(out):
    out[0] = bad(1.0)


try:
    k2[1, 1](out)
    raise AssertionError("missing .cu file accepted")
except FileNotFoundError as e:
    assert "/nonexistent/dir/nothere.cu not found" in str(e), str(e)
print("gpu link ok")
