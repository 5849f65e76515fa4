# Regression from the CPU-against-CUDA fuzzer (tests/fuzz/backends.py, seeds
# 224, 10030, 15681, 17179 of the H200 run): abs() of a signed integer stays
# in the operand's type, as in numba (abs(np.int16(-32768)) is -32768, and
# NumPy's np.abs agrees), on random data with each type's minimum planted.
# The one known exception is the GPU's int16 minimum: ptxas runs abs.s16 in
# a 32-bit register and gives 32768, like -(-32768) in
# negate_in_own_width.py (PTX that cuhost and numba-cuda emit alike).
# stdout: abs in own width ok
import numpy as np
from numba import cuda


@cuda.jit
def k(o, s8, s16, s32, s64):
    i = cuda.grid(1)
    if i < s8.size:
        o[i, 0] = abs(s8[i])
        o[i, 1] = abs(s16[i])
        o[i, 2] = abs(s32[i])
        o[i, 3] = abs(s64[i])
        o[i, 4] = abs(s16[i]) % 3037000493   # the fuzzer's bounded arithmetic widens it after abs


rng = np.random.default_rng(224)
n = 96
s8 = rng.integers(-128, 127, n, endpoint=True).astype(np.int8)
s16 = rng.integers(-2**15, 2**15 - 1, n, endpoint=True).astype(np.int16)
s32 = rng.integers(-2**31, 2**31 - 1, n, endpoint=True).astype(np.int32)
s64 = rng.integers(-2**63, 2**63 - 1, n, endpoint=True).astype(np.int64)
s8[0], s16[0], s32[0], s64[0] = -128, -2**15, -2**31, -2**63
s8[1], s16[1], s32[1], s64[1] = -127, -2**15 + 1, -7, 5
o = np.zeros((n, 5), np.int64)
k[1, n](o, s8, s16, s32, s64)

want = np.stack([np.abs(s8).astype(np.int64), np.abs(s16).astype(np.int64), np.abs(s32).astype(np.int64),
                 np.abs(s64), np.abs(s16).astype(np.int64) % 3037000493], axis=1)
if cuda.backend() == "cuda":
    want[0, 1], want[0, 4] = 2**15, 2**15
assert want[0, 0] == -128 and want[0, 2] == -2**31 and want[0, 3] == -2**63
assert (o == want).all(), [(i, o[i].tolist(), want[i].tolist()) for i in range(n) if (o[i] != want[i]).any()][:4]
print("abs in own width ok")
