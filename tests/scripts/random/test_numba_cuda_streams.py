# numba.cuda.random gives numba-cuda's own numbers: states from
# create_xoroshiro128p_states (three seeds, one with a subsequence start),
# uniform and normal float32/float64 draws per thread and the states after
# them, compared with tests/data/random/numba_cuda_xoroshiro.npz, which
# scripts/gpu/record_numba_random.py recorded under numba-cuda 0.30.4 on an
# H100. Integers and uniforms bit for bit; normals (Box-Muller through
# log/sqrt/cos, libdevice on the GPU, the host's libm on the CPU backend)
# within a few float32 ulps.
# stdout: numba-cuda streams ok
import os
import re

import numpy as np
from numba import cuda
from numba.cuda import random as curand

HERE = os.path.dirname(os.path.abspath(__file__))
ref = np.load(os.path.join(HERE, "..", "..", "data", "random", "numba_cuda_xoroshiro.npz"))


@cuda.jit
def draw(states, u32, u64, n32, n64):
    t = cuda.grid(1)
    if t < states.size:
        for k in range(u32.shape[1]):
            u32[t, k] = curand.xoroshiro128p_uniform_float32(states, t)
            u64[t, k] = curand.xoroshiro128p_uniform_float64(states, t)
            n32[t, k] = curand.xoroshiro128p_normal_float32(states, t)
            n64[t, k] = curand.xoroshiro128p_normal_float64(states, t)


cases = sorted({re.match(r"s(\d+)_(\d+)_", k).groups() for k in ref.files})
assert len(cases) == 4, cases
for seed, start in cases:
    key = "s%s_%s" % (seed, start)
    want_states = ref[key + "_states"]
    threads, draws = ref[key + "_u32"].shape
    states = curand.create_xoroshiro128p_states(threads, seed=int(seed), subsequence_start=int(start))
    np.testing.assert_array_equal(states.copy_to_host().view(np.uint64).reshape(threads, 2), want_states, key)
    outs = [cuda.device_array((threads, draws), dtype=dt) for dt in (np.float32, np.float64, np.float32, np.float64)]
    draw[1, threads](states, *outs)
    u32, u64, n32, n64 = (o.copy_to_host() for o in outs)
    np.testing.assert_array_equal(u32, ref[key + "_u32"], key)
    np.testing.assert_array_equal(u64, ref[key + "_u64"], key)
    np.testing.assert_array_max_ulp(n32, ref[key + "_n32"], maxulp=4)
    # normal_float64 takes the log of a float32 uniform in float32 (numba's
    # typing of math.log), so a one-ulp difference between the host's logf
    # and libdevice's shows as float32-sized relative error in the float64.
    np.testing.assert_allclose(n64, ref[key + "_n64"], rtol=2.0**-21, atol=0)
    np.testing.assert_array_equal(states.copy_to_host().view(np.uint64).reshape(threads, 2), ref[key + "_after"], key)
print("numba-cuda streams ok")
