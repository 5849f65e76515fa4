# numba.cuda.random against a reference written here from the published
# algorithms (splitmix64 seeding, xoroshiro128+ steps, the 2**64 jump
# polynomial, numba-cuda's float conversions and Box-Muller): states made on
# the device, raw outputs, uniforms and jumps must equal the reference bit for
# bit for several seeds and subsequence starts; normals to float rounding.
# stdout: xoroshiro ok
import math

import numpy as np
from numba import cuda
from numba.cuda import random as curand

M = (1 << 64) - 1


def splitmix(seed):
    z = (seed + 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M


def step(s):
    s0, s1 = s
    out = (s0 + s1) & M
    s1 ^= s0
    return out, (rotl(s0, 55) ^ s1 ^ ((s1 << 14) & M), rotl(s1, 36))


def jump(s):
    a = b = 0
    for poly in (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922):
        for bit in range(64):
            if (poly >> bit) & 1:
                a ^= s[0]
                b ^= s[1]
            _, s = step(s)
    return (a, b)


def reference_states(n, seed, start):
    seed &= M
    s = (splitmix(seed), splitmix(seed))
    for _ in range(start):
        s = jump(s)
    out = [s]
    for _ in range(1, n):
        out.append(jump(out[-1]))
    return out


def as_pairs(states):
    return [(int(r["s0"]), int(r["s1"])) for r in states]


for seed, start in ((1, 0), (12345, 3), (0xDEADBEEFCAFEF00D, 0), (-5, 1)):
    n = 40
    d = cuda.random.create_xoroshiro128p_states(n, seed=seed, subsequence_start=start)
    ref = reference_states(n, seed, start)
    assert as_pairs(d.copy_to_host()) == ref, (seed, start)
    host = np.empty(n, curand.xoroshiro128p_dtype)
    curand.init_xoroshiro128p_states_cpu(host, seed, start)
    assert as_pairs(host) == ref


@cuda.jit
def draw(states, raw, u32, u64, n32, n64):
    i = cuda.grid(1)
    if i < states.shape[0]:
        for k in range(raw.shape[1]):
            raw[i, k] = curand.xoroshiro128p_next(states, i)
            u32[i, k] = curand.xoroshiro128p_uniform_float32(states, i)
            u64[i, k] = curand.xoroshiro128p_uniform_float64(states, i)
            n32[i, k] = curand.xoroshiro128p_normal_float32(states, i)
            n64[i, k] = curand.xoroshiro128p_normal_float64(states, i)


n, draws = 33, 9
for seed in (7, 2024, 99991):
    states = cuda.random.create_xoroshiro128p_states(n, seed=seed)
    raw = np.zeros((n, draws), np.uint64)
    u32 = np.zeros((n, draws), np.float32)
    u64 = np.zeros((n, draws), np.float64)
    n32 = np.zeros((n, draws), np.float32)
    n64 = np.zeros((n, draws), np.float64)
    draw[2, 32](states, raw, u32, u64, n32, n64)
    for i, s in enumerate(reference_states(n, seed, 0)):
        for k in range(draws):
            x, s = step(s)
            assert int(raw[i, k]) == x
            x, s = step(s)
            assert u32[i, k] == np.float32((x >> 11) * 2.0 ** -53), (u32[i, k], x)
            x, s = step(s)
            assert u64[i, k] == (x >> 11) * 2.0 ** -53
            for out, two_pi, ftype in ((n32, np.float32(2 * math.pi), np.float32),
                                       (n64, np.float64(2 * math.pi), np.float64)):
                x1, s = step(s)
                x2, s = step(s)
                a = np.float32((x1 >> 11) * 2.0 ** -53)
                b = np.float32((x2 >> 11) * 2.0 ** -53)
                if ftype is np.float32:
                    z = np.sqrt(np.float32(-2.0) * np.log(a)) * np.cos(two_pi * b)
                else:
                    z = math.sqrt(-2.0 * float(np.log(a))) * math.cos(two_pi * float(b))
                assert abs(out[i, k] - z) <= 2e-6 * max(1.0, abs(z)), (out[i, k], z)


@cuda.jit
def jump_each(states):
    i = cuda.grid(1)
    if i < states.shape[0]:
        curand.xoroshiro128p_jump(states, i)


states = cuda.random.create_xoroshiro128p_states(5, seed=77)
jump_each[1, 32](states)
assert as_pairs(states.copy_to_host()) == [jump(s) for s in reference_states(5, 77, 0)]

# init_xoroshiro128p_states fills an existing device array (any stream).
st = cuda.stream()
arr = cuda.device_array(12, dtype=curand.xoroshiro128p_dtype)
curand.init_xoroshiro128p_states(arr, 5, subsequence_start=2, stream=st)
st.synchronize()
assert as_pairs(arr.copy_to_host()) == reference_states(12, 5, 2)
# Many states (initialised in chunks on the CPU backend): equal to the host
# initialisation, and to the reference at chunk boundaries.
big = cuda.random.create_xoroshiro128p_states(20000, seed=31337, subsequence_start=1).copy_to_host()
host = np.empty(20000, curand.xoroshiro128p_dtype)
curand.init_xoroshiro128p_states_cpu(host, 31337, 1)
assert (big == host).all()
ref = reference_states(4100, 31337, 1)
for i in (0, 1, 2, 3, 4, 5, 4095, 4096, 4097, 4099):
    assert as_pairs(big[i:i + 1]) == [ref[i]], i
print("xoroshiro ok")
