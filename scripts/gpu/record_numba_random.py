"""Records numba-cuda's own xoroshiro128+ streams on the GPU machine (run with
python3 and numba-cuda, not cuhost) for tests/scripts/random/
test_numba_cuda_streams.py: for three seeds (and a subsequence start), the
initial states of create_xoroshiro128p_states and, per thread, uniform and
normal float32/float64 draws. Writes numba_cuda_xoroshiro.npz to $OUT (or
the folder given)."""
import os
import sys

import numpy as np

if not hasattr(np, "row_stack"):  # numba-cuda 0.30 still names it
    np.row_stack = np.vstack

from numba import cuda  # noqa: E402
from numba.cuda import random as curand  # noqa: E402

THREADS = 64
DRAWS = 8
CASES = [(1, 0), (12345, 0), (2**62 + 987654321, 0), (12345, 5)]  # numba-cuda takes seeds below 2**63  # (seed, subsequence_start)


@cuda.jit
def draw(states, u32, u64, n32, n64):
    t = cuda.grid(1)
    if t < states.size:
        for k in range(u32.shape[1]):
            u32[t, k] = curand.xoroshiro128p_uniform_float32(states, t)
            u64[t, k] = curand.xoroshiro128p_uniform_float64(states, t)
            n32[t, k] = curand.xoroshiro128p_normal_float32(states, t)
            n64[t, k] = curand.xoroshiro128p_normal_float64(states, t)


arrays = {}
for seed, start in CASES:
    key = "s%d_%d" % (seed, start)
    states = curand.create_xoroshiro128p_states(THREADS, seed=seed, subsequence_start=start)
    arrays[key + "_states"] = states.copy_to_host().view(np.uint64).reshape(THREADS, 2)
    outs = [cuda.device_array((THREADS, DRAWS), dtype=dt) for dt in (np.float32, np.float64, np.float32, np.float64)]
    draw[1, THREADS](states, *outs)
    for name, o in zip(("u32", "u64", "n32", "n64"), outs):
        arrays[key + "_" + name] = o.copy_to_host()
    arrays[key + "_after"] = states.copy_to_host().view(np.uint64).reshape(THREADS, 2)
dest = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", "/tmp")
np.savez(os.path.join(dest, "numba_cuda_xoroshiro.npz"), **arrays)
print("recorded %d arrays in %s" % (len(arrays), os.path.join(dest, "numba_cuda_xoroshiro.npz")))
