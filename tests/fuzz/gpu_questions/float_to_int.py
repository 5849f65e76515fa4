# GPU question (docs/RELIABILITY.md, CPU-against-CUDA triage): float-to-int
# conversions of NaN, infinities and out-of-range values (undefined in
# numba). Run on the GPU and on the CPU with CUHOST_SATURATING_FLOAT_TO_INT=1:
# the two must print the same lines for backends.py's `:sat` check to be
# right (the fuzzer's seeds 108, 4331, 8969, 9686, 12796, 13535, 23523,
# 29200). The H200's first answer (NaN to the top-bit pattern, int8 through
# 16 bits) is what the saturating mode now does; NaN to int16 was inferred.
import numpy as np
from numba import cuda


@cuda.jit
def k(i64, i32, i16, i8, u64, u32, u16, u8, x):
    for j in range(x.size):
        i64[j] = np.int64(x[j])
        i32[j] = np.int32(x[j])
        i16[j] = np.int16(x[j])
        i8[j] = np.int8(x[j])
        u64[j] = np.uint64(x[j])
        u32[j] = np.uint32(x[j])
        u16[j] = np.uint16(x[j])
        u8[j] = np.uint8(x[j])


x = np.array([np.nan, np.inf, -np.inf, 1e300, -1e300, 3e9, -3e9, 40000.5, -40000.5, 200.5, -200.5, -1.5, 1e19,
              2.5e19])
outs = [np.zeros(x.size, dt) for dt in (np.int64, np.int32, np.int16, np.int8, np.uint64, np.uint32, np.uint16,
                                         np.uint8)]
k[1, 1](*outs, x)
for a in outs:
    print("float_to_int %s: %s" % (a.dtype, " ".join(str(int(v)) for v in a)))
