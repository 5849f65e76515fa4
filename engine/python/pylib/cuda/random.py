"""numba.cuda.random: the xoroshiro128+ random number generator.

The same streams as numba-cuda for the same seed. The published algorithm
(Blackman and Vigna, http://xoroshiro.di.unimi.it/): a state is two 64-bit
words; splitmix64 turns the seed into the first state; each further
generator is the previous one advanced by 2**64 steps (the jump
polynomial), so generator i is the first one jumped subsequence_start + i
times. Floats take the top 53 bits of an output (float32: that float64
rounded); normals use Box-Muller on two float32 uniforms, keeping the cosine
half, as numba-cuda does (its float64 normal also draws float32 uniforms).

The generator functions are device functions written in the kernel
language. State initialisation runs on the device: a jump is a linear map of
the 128 state bits over GF(2), so the host squares its matrix into the
matrices of 2**j jumps (once per process) and one thread per generator
applies those of the set bits of its jump count.
"""
import math

import numpy as np

import _cuhost

from . import api as _api
from .compiler import jit as _jit
from .device_api import grid as _grid
from .np.numpy_support import from_dtype
from .types import float32, float64, int64, uint32, uint64

# One generator's state: two 64-bit words.
xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)
xoroshiro128p_type = from_dtype(xoroshiro128p_dtype)

_jit_device = _jit(device=True)

# splitmix64 and xoroshiro128+ constants (published with the algorithms).
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_JUMP = (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922)
TWO_PI_FLOAT32 = np.float32(2 * math.pi)
TWO_PI_FLOAT64 = np.float64(2 * math.pi)


@_jit_device
def init_xoroshiro128p_state(states, index, seed):
    """Seed states[index] from a 64-bit seed through splitmix64."""
    z = uint64(seed) + _GOLDEN
    z = (z ^ (z >> uint32(30))) * _MIX1
    z = (z ^ (z >> uint32(27))) * _MIX2
    z = z ^ (z >> uint32(31))
    states[int64(index)]["s0"] = z
    states[int64(index)]["s1"] = z


@_jit_device
def rotl(x, k):
    """x rotated left by k bits (0 < k < 64)."""
    x = uint64(x)
    k = uint32(k)
    return (x << k) | (x >> uint32(64 - k))


@_jit_device
def xoroshiro128p_next(states, index):
    """The next uint64 of generator states[index], advancing it."""
    i = int64(index)
    s0 = states[i]["s0"]
    s1 = states[i]["s1"]
    out = s0 + s1
    s1 = s1 ^ s0
    states[i]["s0"] = rotl(s0, uint32(55)) ^ s1 ^ (s1 << uint32(14))
    states[i]["s1"] = rotl(s1, uint32(36))
    return out


@_jit_device
def xoroshiro128p_jump(states, index):
    """Advances generator states[index] by 2**64 steps."""
    i = int64(index)
    a = uint64(0)
    b = uint64(0)
    for word in range(2):
        poly = uint64(0xBEAC0467EBA5FACB) if word == 0 else uint64(0xD86B048B86AA9922)
        for bit in range(64):
            if (poly >> uint32(bit)) & uint64(1):
                a ^= states[i]["s0"]
                b ^= states[i]["s1"]
            xoroshiro128p_next(states, i)
    states[i]["s0"] = a
    states[i]["s1"] = b


@_jit_device
def uint64_to_unit_float64(x):
    """A float64 in [0, 1) from the top 53 bits of x."""
    return float64(uint64(x) >> uint32(11)) * (float64(1) / float64(uint64(1) << uint32(53)))


@_jit_device
def uint64_to_unit_float32(x):
    """A float32 in [0, 1]: the float64 of uint64_to_unit_float64 rounded."""
    return float32(uint64_to_unit_float64(x))


@_jit_device
def xoroshiro128p_uniform_float32(states, index):
    """A uniform float32 in [0, 1) from generator states[index]."""
    return uint64_to_unit_float32(xoroshiro128p_next(states, int64(index)))


@_jit_device
def xoroshiro128p_uniform_float64(states, index):
    """A uniform float64 in [0, 1) from generator states[index]."""
    return uint64_to_unit_float64(xoroshiro128p_next(states, int64(index)))


@_jit_device
def xoroshiro128p_normal_float32(states, index):
    """A standard normal float32 (Box-Muller; advances the generator twice)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float32(2.0) * math.log(u1)) * math.cos(TWO_PI_FLOAT32 * u2)


@_jit_device
def xoroshiro128p_normal_float64(states, index):
    """A standard normal float64 (Box-Muller on two float32 uniforms, as numba-cuda)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float64(2.0) * math.log(u1)) * math.cos(TWO_PI_FLOAT64 * u2)


# ---- initialisation ----------------------------------------------------------

def _splitmix64(seed):
    # Any integer seed wraps to 64 bits, as numba's uint64(seed) does.
    with np.errstate(over="ignore"):
        z = np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF) + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _MIX1
        z = (z ^ (z >> np.uint64(27))) * _MIX2
        return z ^ (z >> np.uint64(31))


def _next_lanes(s0, s1):
    """xoroshiro128+ steps of many states at once (NumPy uint64 arrays, in place)."""
    s1 ^= s0
    s0[:] = ((s0 << np.uint64(55)) | (s0 >> np.uint64(9))) ^ s1 ^ (s1 << np.uint64(14))
    s1[:] = (s1 << np.uint64(36)) | (s1 >> np.uint64(28))


def _jump_lanes(s0, s1):
    a = np.zeros_like(s0)
    b = np.zeros_like(s1)
    for poly in _JUMP:
        for bit in range(64):
            if (poly >> bit) & 1:
                a ^= s0
                b ^= s1
            _next_lanes(s0, s1)
    s0[:] = a
    s1[:] = b


def _unit_columns():
    """The 128 unit states (column b has only bit b set; bits 0-63 are s0)."""
    s0 = np.zeros(128, np.uint64)
    s1 = np.zeros(128, np.uint64)
    for b in range(64):
        s0[b] = np.uint64(1) << np.uint64(b)
        s1[64 + b] = np.uint64(1) << np.uint64(b)
    return s0, s1


def _apply(m0, m1, v0, v1):
    """M applied to each state (v0[k], v1[k]): the XOR of M's columns at its set bits."""
    r0 = np.zeros_like(v0)
    r1 = np.zeros_like(v1)
    for b in range(128):
        word = v0 if b < 64 else v1
        on = ((word >> np.uint64(b % 64)) & np.uint64(1)).astype(bool)
        r0[on] ^= m0[b]
        r1[on] ^= m1[b]
    return r0, r1


_jump_powers = []  # [j] = columns (s0 words, s1 words) of the matrix of 2**j jumps


def _jump_matrices(count):
    """A (count, 128, 2) uint64 array: the matrices of 2**j jumps, j < count."""
    if not _jump_powers:
        c0, c1 = _unit_columns()
        _jump_lanes(c0, c1)
        _jump_powers.append((c0, c1))
    while len(_jump_powers) < count:
        m0, m1 = _jump_powers[-1]
        _jump_powers.append(_apply(m0, m1, m0.copy(), m1.copy()))
    out = np.empty((max(count, 1), 128, 2), np.uint64)
    for j in range(count):
        out[j, :, 0], out[j, :, 1] = _jump_powers[j]
    return out


@_jit
def _init_states_kernel(states, s0, s1, start, matrices, chunk):
    # Thread t makes states [t * chunk, (t + 1) * chunk): the first from the
    # jump matrices, each next one by one jump from the previous.
    t = _grid(1)
    first = t * chunk
    if first < states.shape[0]:
        a = uint64(s0)
        b = uint64(s1)
        k = uint64(start) + uint64(first)
        j = 0
        while k != uint64(0):
            if k & uint64(1):
                r0 = uint64(0)
                r1 = uint64(0)
                for bit in range(128):
                    word = a if bit < 64 else b
                    if (word >> uint32(bit % 64)) & uint64(1):
                        r0 ^= matrices[j, bit, 0]
                        r1 ^= matrices[j, bit, 1]
                a = r0
                b = r1
            k = k >> uint32(1)
            j += 1
        states[first]["s0"] = a
        states[first]["s1"] = b
        last = min(first + chunk, states.shape[0])
        for i in range(first + 1, last):
            states[i] = states[i - 1]
            xoroshiro128p_jump(states, i)


def _jump_count_bits(start, n):
    return max(1, int(start + max(n, 1) - 1).bit_length())


def init_xoroshiro128p_states_cpu(states, seed, subsequence_start):
    """Initialises a host array of states (generator i: subsequence_start + i jumps)."""
    n = states.shape[0]
    if n < 1:
        return
    start = int(subsequence_start)
    z = _splitmix64(seed)
    m = _jump_matrices(_jump_count_bits(start, n))
    k = np.uint64(start) + np.arange(n, dtype=np.uint64)
    a = np.full(n, z, np.uint64)
    b = np.full(n, z, np.uint64)
    for j in range(m.shape[0]):
        sel = ((k >> np.uint64(j)) & np.uint64(1)).astype(bool)
        if sel.any():
            a[sel], b[sel] = _apply(m[j, :, 0], m[j, :, 1], a[sel], b[sel])
    states["s0"] = a
    states["s1"] = b


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Initialises the device array `states` for len(states) generators.

    Generator i is the seeded one advanced by (subsequence_start + i) * 2**64
    steps, so no two overlap unless one draws more than 2**64 numbers.
    """
    n = states.shape[0]
    if n < 1:
        return
    start = int(subsequence_start)
    if start < 0:
        raise ValueError("subsequence_start must not be negative")
    z = _splitmix64(seed)
    matrices = _api.to_device(_jump_matrices(_jump_count_bits(start, n)), stream=stream)
    # A GPU makes every state in its own thread; the CPU backend's few cores
    # do better jumping through chunks (one jump costs 128 steps, a matrix
    # product about 64 per set bit of the jump count).
    chunk = 1 if _cuhost.backend() == "cuda" else max(1, min(64, n // 4096))
    workers = (n + chunk - 1) // chunk
    threads = 128
    blocks = (workers + threads - 1) // threads
    _init_states_kernel[blocks, threads, stream](states, z, z, np.uint64(start), matrices, chunk)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new device array of n generator states, initialised on the device."""
    states = _api.device_array(n, dtype=xoroshiro128p_dtype, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states
