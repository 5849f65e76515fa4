# NVRTC and nvJitLink are loaded at their first use, not when the process
# starts: a process that compiles and runs Python kernels maps no NVRTC (on
# the GPU the linker's warm-up loads nvJitLink; on the CPU backend nothing
# loads it), and NVRTC is loaded once CUDA C is compiled.
# (The test suite's PTX check of CPU kernels, which assembles with nvJitLink,
# is off here: a user's process runs without it.)
# env: CUHOST_VERIFY_PTX=0
# stdout: toolkit libraries loaded on first use
import numpy as np

from numba import cuda
from numba.cuda.cudadrv import nvrtc


def mapped(stem):
    with open("/proc/self/maps") as f:
        return any(stem in line for line in f)


@cuda.jit
def scaled(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = 2 * x[i] + 1


x = np.random.default_rng(4).random(257).astype(np.float32)
out = np.zeros_like(x)
scaled[3, 128](x, out)
np.testing.assert_allclose(out, 2 * x + 1, rtol=1e-6)
assert not mapped("libnvrtc"), "NVRTC was loaded by a process that compiled no CUDA C"
if cuda.backend() == "cpu":
    assert not mapped("libnvJitLink"), "nvJitLink was loaded by a process that linked nothing"

result, _ = nvrtc.compile('extern "C" __device__ int plus_one(int a) { return a + 1; }', "plus_one.cu", (9, 0))
assert b".visible .func" in result.code and b"plus_one" in result.code, result.code[:200]
assert mapped("libnvrtc"), "NVRTC compiled without being loaded?"
print("toolkit libraries loaded on first use")
