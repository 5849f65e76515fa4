# use_cooperative=True on a declaration: kernels calling it launch
# cooperatively and link libcudadevrt, so foreign code can synchronize the
# whole grid (cooperative_groups::this_grid().sync()).
# backends: cuda
# stdout: gpu cooperative ok
import numpy as np
from numba import cuda

code = cuda.CUSource(r'''
#include <cooperative_groups.h>
extern "C" __device__ int ffi_grid_sync(int* ret) {
  cooperative_groups::this_grid().sync();
  *ret = 0;
  return 0;
}
''', name="grid_sync.cu")
grid_sync = cuda.declare_device("ffi_grid_sync", "int32()", link=code, use_cooperative=True)


@cuda.jit
def k(out, xs):
    i = cuda.grid(1)
    n = xs.size
    xs[i] = xs[i] * 2          # every block writes its part
    grid_sync()                # then every thread reads another block's part
    out[i] = xs[(i + 128) % n]


blocks = 8
xs = np.random.default_rng(4).integers(-100, 100, blocks * 128).astype(np.int32)
out = np.zeros_like(xs)
k[blocks, 128](out, xs.copy())
np.testing.assert_array_equal(out, np.roll(xs * 2, -128))
print("gpu cooperative ok")
