# A kernel's static shared arrays are the shared memory it gets, as in
# numba-cuda: get_shared_mem_per_block counts an array whose every load the
# optimizer forwards from the thread's own stores (LLVM would otherwise
# delete it), per signature and for all of them; the PTX declares it.
# stdout: declared shared memory ok
import warnings

import numpy as np
from numba import cuda, void, float32, float64

warnings.filterwarnings("ignore", message="(Grid size|Host array)")
N = 10


@cuda.jit
def staged_copy(src, dst):
    sm = cuda.shared.array(N, dtype=src.dtype)
    for j in range(N):
        sm[j] = src[j] * 2
    for j in range(N):
        dst[j] = sm[j]


rng = np.random.default_rng(5)
for dt in (np.float32, np.float64):
    src = rng.standard_normal(N).astype(dt)
    dst = np.zeros(N, dt)
    staged_copy[1, 1](src, dst)
    assert np.array_equal(dst, src * 2), dst
sig32, sig64 = void(float32[::1], float32[::1]), void(float64[::1], float64[::1])
assert staged_copy.get_shared_mem_per_block(sig32) == N * 4
assert staged_copy.get_shared_mem_per_block(sig64) == N * 8
every = staged_copy.get_shared_mem_per_block()
assert every[sig32.args] == N * 4 and every[sig64.args] == N * 8, every
assert ".shared .align 16 .b8" in staged_copy.inspect_asm(sig64) and "[80];" in staged_copy.inspect_asm(sig64)
print("declared shared memory ok")
