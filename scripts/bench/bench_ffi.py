# P6: first call of a kernel that links a .cu file (NVRTC + link + load);
# with BENCH_LABEL=_cached and the same cache, the second process shows the
# cached figure.
import os

from _harness import bench, np
from numba import cuda

here = os.path.dirname(os.path.abspath(__file__))
mul = cuda.declare_device("mul_f32_f32", "float32(float32, float32)",
                          link=os.path.join(here, "..", "examples", "ffi", "functions.cu"))


@cuda.jit
def multiply(r, a, b):
    i = cuda.grid(1)
    if i < len(r):
        r[i] = mul(a[i], b[i])


a = np.random.default_rng(0).random(4096, dtype=np.float32)
r = np.zeros_like(a)
cuda.to_device(a)  # create the CUDA context first: it is not part of the compile figure
cuda.synchronize()
bench.report(bench.once(lambda: multiply[16, 256](r, a, a), "first_call_ffi_cu" + os.environ.get("BENCH_LABEL", "")))
if bench.kernels_run():  # not under the null driver (host-cost runs)
    np.testing.assert_array_equal(r, a * a)
