# CUHOST_SATURATING_FLOAT_TO_INT=1 (codegen/lowering/saturating_conversions.h):
# float-to-int conversions behave as the H200's cvt.rzi does, on every
# backend: out-of-range values saturate to the type's limit, a NaN gives the
# pattern with only the top bit set (INT_MIN, 2^63, 2^31, 32768), and an
# 8-bit result is the low byte of the 16-bit conversion (int8(inf) is -1,
# int8(200.5) -56; NVPTX has no 8-bit registers). The fuzzer
# (tests/fuzz/backends.py, side flag :sat) reruns a CPU side with it to prove
# a difference from the GPU to be such an undefined conversion. Checked
# against NumPy on random values of every magnitude plus NaN, infinities and
# each type's edges, explicit (np.int16(x)) and implicit (a store).
# env: CUHOST_SATURATING_FLOAT_TO_INT=1
# stdout: saturating conversions ok
import numpy as np
from numba import cuda

TYPES = (np.int64, np.int32, np.int16, np.int8, np.uint64, np.uint32, np.uint16, np.uint8)


@cuda.jit
def k(i64, i32, i16, i8, u64, u32, u16, u8, x):
    for j in range(x.size):
        i64[j] = x[j]              # a store converts implicitly
        i32[j] = np.int32(x[j])
        i16[j] = np.int16(x[j])
        i8[j] = np.int8(x[j])
        u64[j] = x[j]
        u32[j] = np.uint32(x[j])
        u16[j] = np.uint16(x[j])
        u8[j] = np.uint8(x[j])


rng = np.random.default_rng(35)
x = rng.uniform(-1, 1, 200) * 10.0 ** rng.integers(-3, 25, 200)
edges = [np.nan, np.inf, -np.inf, -0.0, -0.5, 0.99, 127.9, 128.0, -128.9, -129.0, 255.5, 256.0, 32767.5, 32768.0,
         -32768.5, -32769.0, 65535.9, 65536.0, 2.0**31, -2.0**31 - 1, 2.0**32, 2.0**63, -2.0**63, 2.0**64, -1.0]
x = np.concatenate([x, edges])
outs = [np.zeros(x.size, t) for t in TYPES]
k[1, 1](*outs, x)


def saturated(v, t):
    info = np.iinfo(t)
    if info.bits == 8:   # the low byte of the 16-bit conversion
        wide = saturated(v, np.int16 if info.min < 0 else np.uint16)
        return int(np.array(wide, np.int64).astype(t))
    if v != v:
        return int(info.min) if info.min < 0 else 2 ** (info.bits - 1)
    if v >= float(info.max) + 1:   # float(2**63 - 1) rounds up to 2**63
        return int(info.max)
    if v <= float(info.min) - 1:
        return int(info.min)
    return max(int(info.min), min(int(info.max), int(v)))   # int() truncates toward zero


for a, t in zip(outs, TYPES):
    want = [saturated(float(v), t) for v in x]
    bad = [(float(v), int(g), w) for v, g, w in zip(x, a, want) if int(g) != w]
    assert not bad, (np.dtype(t).name, bad[:5])
print("saturating conversions ok")
