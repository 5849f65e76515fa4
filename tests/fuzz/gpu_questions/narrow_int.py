# GPU question (docs/RELIABILITY.md, CPU-against-CUDA triage): -x and abs(x)
# of each signed type's minimum, kept in the operand's type by numba. The
# fuzzer's seeds 224, 1542, 10030, 11385, 12735, 15681, 17179 differ as if
# the GPU gave 32768 for the int16 minimum; this prints what it gives for
# every width, and through the fuzzer's `% 3037000493`.
import numpy as np
from numba import cuda


@cuda.jit
def k(o, s8, s16, s32, s64):
    o[0] = -s8[0]
    o[1] = abs(s8[0])
    o[2] = -s16[0]
    o[3] = abs(s16[0])
    o[4] = (-s16[0]) % 3037000493
    o[5] = abs(s16[0]) % 3037000493
    o[6] = -s32[0]
    o[7] = abs(s32[0])
    o[8] = -s64[0]
    o[9] = abs(s64[0])


o = np.zeros(10, np.int64)
k[1, 1](o, np.array([-128], np.int8), np.array([-2**15], np.int16), np.array([-2**31], np.int32),
        np.array([-2**63], np.int64))
names = ["-i8", "abs i8", "-i16", "abs i16", "-i16 % M", "abs i16 % M", "-i32", "abs i32", "-i64", "abs i64"]
for name, v in zip(names, o):
    print("narrow_int %s: %d" % (name, v))
