# GPU question (docs/RELIABILITY.md, CPU-against-CUDA triage): abs() of the
# int32 and int64 minimum, converted to float64. Fuzz seed 43246 computed
# `71.11 % np.float64(abs(m))` with m the int64 minimum: -9.22e18 on the CPU
# (abs(m) wraps to m, as under numba's njit), 71.11 on the GPU. The integer
# itself is m on both; ptxas, reading `abs.s64`'s result as |a| (never
# negative), converts it as unsigned when the conversion follows the abs
# directly: numba-cuda gives the GPU's answers too (checked on an H200).
import numpy as np
from numba import cuda


@cuda.jit
def k(o, oi, s32, s64, x):
    a32 = abs(s32[0])
    a64 = abs(s64[0])
    oi[0] = a32
    oi[1] = a64
    o[0] = np.float64(abs(s32[0]))
    o[1] = np.float64(abs(s64[0]))
    o[2] = x % np.float64(abs(s64[0]))


o = np.zeros(3)
oi = np.zeros(2, np.int64)
k[1, 1](o, oi, np.array([-2**31], np.int32), np.array([-2**63], np.int64), 71.11)
for name, v in zip(["abs i32", "abs i64"], oi):
    print("abs_min_to_float %s: %d" % (name, v))
for name, v in zip(["float(abs i32)", "float(abs i64)", "71.11 % float(abs i64)"], o):
    print("abs_min_to_float %s: %r" % (name, float(v)))
