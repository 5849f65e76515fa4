# Regression from the differential fuzzer (tests/fuzz): `~` on an unsigned
# integer narrower than 64 bits inverts in the operand's own width and then
# widens to uint64, as numba's int_invert_impl (~np.uint8(0) is 255, not
# 2**64 - 1); signed operands are unaffected (sign extension commutes).
# stdout: unsigned invert ok
import numpy as np
from numba import cuda


@cuda.jit
def k(o, a8, a16, a32, a64, s8, s32):
    i = cuda.grid(1)
    if i < a8.size:
        o[i, 0] = ~a8[i]
        o[i, 1] = ~a16[i]
        o[i, 2] = ~a32[i]
        o[i, 3] = ~a64[i]
        o[i, 4] = ~s8[i]
        o[i, 5] = ~s32[i]
        o[i, 6] = (~a8[i]) % 7
        o[i, 7] = ~a32[i] + 1


rng = np.random.default_rng(1907)
n = 100
a8 = rng.integers(0, 255, n, endpoint=True).astype(np.uint8)
a16 = rng.integers(0, 2**16 - 1, n, endpoint=True).astype(np.uint16)
a32 = rng.integers(0, 2**32 - 1, n, endpoint=True).astype(np.uint32)
a64 = rng.integers(0, 2**64 - 1, n, endpoint=True, dtype=np.uint64)
s8 = rng.integers(-128, 127, n, endpoint=True).astype(np.int8)
s32 = rng.integers(-2**31, 2**31 - 1, n, endpoint=True).astype(np.int32)
a8[0], a16[0], a32[0], a64[0] = 0, 0, 0, 0
o = np.zeros((n, 8), np.uint64)
k[1, n](o, a8, a16, a32, a64, s8, s32)
M = 2**64
for i in range(n):
    want = [255 - int(a8[i]), 65535 - int(a16[i]), 2**32 - 1 - int(a32[i]), M - 1 - int(a64[i]),
            (~int(s8[i])) % M, (~int(s32[i])) % M, (255 - int(a8[i])) % 7, 2**32 - int(a32[i])]
    assert [int(x) for x in o[i]] == want, (i, o[i].tolist(), want)
print("unsigned invert ok")
