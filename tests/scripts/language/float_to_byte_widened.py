# A float converted to an 8-bit integer is one byte wherever it is used:
# stored, or widened again (`np.int32(np.int8(x))`). Out of the 8-bit range
# the conversion is undefined (numba lowers it to LLVM's fptosi/fptoui, whose
# result is then poison), but the value an int8 holds must still be an int8:
# LLVM 19's NVPTX backend gave 784 for `np.int32(np.int8(784.0))` (its 16-bit
# conversion taken as already extended from 8 bits) while storing 16, where
# numba-cuda gives 16 both ways (fuzz seed 86293). cuhost converts through 16
# bits and truncates (codegen/nvptx_conversions.h). In range, each
# result is NumPy's; out of range, each widened value is the byte stored.
# Checked on either backend, and in the PTX.
# stdout: float to byte ok
import numpy as np
from numba import cuda


@cuda.jit
def widen(s8, s32, u8, u32, x):
    i = cuda.grid(1)
    if i < x.size:
        s8[i] = np.int8(x[i])
        s32[i] = np.int32(np.int8(x[i]))
        u8[i] = np.uint8(x[i])
        u32[i] = np.int32(np.uint8(x[i]))


def run(x):
    s8, u8 = np.zeros(x.size, np.int8), np.zeros(x.size, np.uint8)
    s32, u32 = np.zeros(x.size, np.int32), np.zeros(x.size, np.int32)
    widen[(x.size + 127) // 128, 128](s8, s32, u8, u32, x)
    return s8, s32, u8, u32


rng = np.random.default_rng(86293)
inside = rng.uniform(-127.9, 127.9, 1000)
s8, s32, u8, u32 = run(inside)
assert np.array_equal(s8, np.trunc(inside).astype(np.int8)), inside[s8 != np.trunc(inside)][:5]
assert np.array_equal(s32, s8.astype(np.int32))
positive = rng.uniform(0.0, 255.9, 1000)
s8, s32, u8, u32 = run(positive)
assert np.array_equal(u8, np.trunc(positive).astype(np.uint8))
assert np.array_equal(u32, u8.astype(np.int32))

outside = np.concatenate([rng.uniform(128.0, 30000.0, 500), rng.uniform(-30000.0, -129.0, 500),
                          [784.0, 200.5, -300.0, 40000.0, 1e6]])
s8, s32, u8, u32 = run(outside)
assert np.array_equal(s32, s8.astype(np.int32)), np.argwhere(s32 != s8)[:5]
assert np.array_equal(u32, u8.astype(np.int32)), np.argwhere(u32 != u8)[:5]
# Values the 16-bit conversion holds exactly: its low byte, on either backend.
assert s8[-5] == 16 and s8[-4] == -56 and s8[-3] == -44, s8[-5:]

# The PTX: the 16-bit conversion, then an extension from 8 bits (or a mask).
ptx, _ = cuda.compile_ptx(widen.py_func, "void(int8[::1], int32[::1], uint8[::1], int32[::1], float64[::1])")
assert "cvt.rzi.s16.f64" in ptx and "cvt.s32.s8" in ptx, ptx
assert "cvt.rzi.u16.f64" in ptx and "255;" in ptx, ptx
print("float to byte ok")
