# A kernel with an eager signature is compiled, linked and loaded at
# decoration, so the setup callbacks of its link items run then, before any
# launch; the module is the one later launches use (no second setup).
# backends: cuda
# stdout: gpu eager callbacks ok
import numpy as np
from numba import cuda

log = []
code = cuda.CUSource(r'''
extern "C" __device__ int ffi_plus_one(int* ret, int x) { *ret = x + 1; return 0; }
''', name="plus_one.cu", setup_callback=lambda mod: log.append(mod.handle))
plus_one = cuda.declare_device("ffi_plus_one", "int32(int32)", link=code)


@cuda.jit("void(int32[::1], int32[::1])")
def eager(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = plus_one(xs[i])


assert len(log) == 1, log          # at decoration
xs = np.arange(100, dtype=np.int32)
out = np.zeros(100, np.int32)
eager[1, 128](out, xs)
np.testing.assert_array_equal(out, xs + 1)
assert len(log) == 1, log
print("gpu eager callbacks ok")
