# A .cu source may use what NVRTC gives it without any include (size_t,
# ptrdiff_t, the fixed-width integer types, NULL) on every backend; on the
# CPU backend it may still include <cstdint>/<cstddef> itself (NVRTC has no
# such headers). numba-cuda's own documentation example (sum_reduce over
# size_t) is such a source. Results against NumPy on random data.
# stdout: nvrtc predefined types ok
import numpy as np
from numba import cuda

SOURCE = r"""
extern "C" __device__ int count_bytes(int64_t* ret, uint8_t* data, size_t n) {
  int64_t total = 0;
  const uint8_t* p = data;
  if (p == NULL) return 0;
  for (size_t i = 0; i < n; ++i) total += (int64_t)p[i] * (int32_t)(i % 7);
  ptrdiff_t span = (p + n) - p;
  *ret = total + (int64_t)(span - (ptrdiff_t)n) + (int64_t)sizeof(uint16_t) * 0;
  return 0;
}
"""
WITH_INCLUDES = "#include <cstdint>\n#include <cstddef>\n" + SOURCE.replace("count_bytes", "count_bytes2")

count = cuda.declare_device("count_bytes", "int64(CPointer(uint8), uint64)",
                            link=cuda.CUSource(SOURCE))
count2 = cuda.declare_device("count_bytes2", "int64(CPointer(uint8), uint64)",
                             link=cuda.CUSource(WITH_INCLUDES))


@cuda.jit
def kernel(out, rows):
    i = cuda.grid(1)
    if i < rows.shape[0]:
        out[i, 0] = count(cuda.ffi.from_buffer(rows[i]), rows.shape[1])


@cuda.jit
def kernel_with_includes(out, rows):
    i = cuda.grid(1)
    if i < rows.shape[0]:
        out[i, 1] = count2(cuda.ffi.from_buffer(rows[i]), rows.shape[1])


rng = np.random.default_rng(3)
rows = rng.integers(0, 256, (40, 97)).astype(np.uint8)
out = np.zeros((40, 2), np.int64)
kernel[1, 64](out, rows)
weights = np.arange(97) % 7
expected = (rows.astype(np.int64) * weights).sum(axis=1)
if cuda.backend() == "cpu":
    kernel_with_includes[1, 64](out, rows)
    assert (out[:, 1] == expected).all(), (out[:3], expected[:3])
if cuda.backend() == "cuda" and cuda.get_current_device().name != "cuhost null driver":
    assert (out[:, 0] == expected).all(), (out[:3], expected[:3])  # kernels run (not over the null driver)
elif cuda.backend() == "cpu":
    assert (out[:, 0] == expected).all(), (out[:3], expected[:3])
print("nvrtc predefined types ok")
