# Foreign CUDA C++ built against nrt.cuh (numba.cuda.memory_management.nrt.get_include())
# and linked with nrt=True calls the kernel module's NRT_Allocate/NRT_Free
# (docs/NRT.md): scratch memory on the heap, counted by rtsys as alloc/free.
# stdout: foreign allocator ok
import os

import numpy as np
from numba import cuda, types
from numba.cuda import config
from numba.cuda.cudadrv.linkable_code import CUSource
from numba.cuda.memory_management.nrt import get_include, rtsys

config.CUDA_ENABLE_NRT = True
assert os.path.isfile(os.path.join(get_include(), "nrt.cuh"))
src = f"#include <{get_include()}/nrt.cuh>\n" + """
extern "C" __device__ int scratch_dot(double* ret, const double* x, int n) {
    double* p = (double*)NRT_Allocate(n * sizeof(double));
    for (int i = 0; i < n; ++i) p[i] = x[i] * x[i];
    double s = 0;
    for (int i = 0; i < n; ++i) s += p[i];
    NRT_Free(p);
    *ret = s;
    return 0;
}
"""
scratch_dot = cuda.declare_device(
    "scratch_dot", types.float64(types.CPointer(types.float64), types.int32), link=[CUSource(src, nrt=True)]
)


@cuda.jit
def rows(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = scratch_dot(cuda.ffi.from_buffer(x[i]), x.shape[1])


rng = np.random.default_rng(3)
x = rng.standard_normal((6, 5))
out = np.zeros(6)
rtsys.memsys_enable_stats()
before = rtsys.get_allocation_stats()
rows[1, 8](x, out)
after = rtsys.get_allocation_stats()
assert np.allclose(out, (x * x).sum(axis=1)), out
d = tuple(a - b for a, b in zip(after, before))
assert d == (6, 6, 0, 0), d
rtsys.memsys_disable_stats()
print("foreign allocator ok")
