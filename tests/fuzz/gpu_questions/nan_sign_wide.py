# GPU question (docs/RELIABILITY.md, CPU-against-CUDA triage, seeds
# 18500-31199): the sign of the NaN made by float32 arithmetic and by the
# math functions outside their domain, in both widths. nan_sign.py showed
# that float64 `0/0`, `0 % 0`, `inf - inf`, `sqrt(-1)`... give the negative
# NaN on the GPU as on the CPU, yet 14 programs of the second batch differ
# only by the sign of a NaN fed to math.copysign (each made equal on the CPU
# by reading that NaN as positive). Candidates: PTX's float32 instructions
# (canonical NaN 0x7fffffff), libdevice's math functions against glibc's.
# Prints one line per operation and width: the bits, and copysign(1, it)
# computed on the device.
import math
import struct

import numpy as np
from numba import cuda

NAMES = ["0/0", "(-1)**0.5", "0%0", "0//0", "inf-inf", "0*inf", "sqrt(-1)", "inf%1", "1%0",
         "log(-1)", "log2(-1)", "log10(-1)", "log1p(-2)", "acos(2)", "asin(2)", "acosh(0.5)",
         "atanh(2)", "sin(inf)", "cos(inf)", "tan(inf)", "pow(-1,0.5)", "-(0/0)", "abs(0/0)"]


@cuda.jit
def k(o, s, x):
    zero, neg, inf, half, two, one = x[0], x[1], x[2], x[3], x[4], x[5]
    o[0] = zero / zero
    o[1] = neg ** half
    o[2] = zero % zero
    o[3] = zero // zero
    o[4] = inf - inf
    o[5] = zero * inf
    o[6] = math.sqrt(neg)
    o[7] = inf % one
    o[8] = one % zero
    o[9] = math.log(neg)
    o[10] = math.log2(neg)
    o[11] = math.log10(neg)
    o[12] = math.log1p(neg - one)
    o[13] = math.acos(two)
    o[14] = math.asin(two)
    o[15] = math.acosh(half)
    o[16] = math.atanh(two)
    o[17] = math.sin(inf)
    o[18] = math.cos(inf)
    o[19] = math.tan(inf)
    o[20] = math.pow(neg, half)
    o[21] = -(zero / zero)
    o[22] = abs(zero / zero)
    for j in range(23):
        s[j] = math.copysign(one, o[j])


for dt, ifmt, fmt in ((np.float64, "<Q", "<d"), (np.float32, "<I", "<f")):
    o = np.zeros(len(NAMES), dt)
    s = np.zeros(len(NAMES), dt)
    k[1, 1](o, s, np.array([0.0, -1.0, np.inf, 0.5, 2.0, 1.0], dt))
    for j, name in enumerate(NAMES):
        bits = struct.unpack(ifmt, struct.pack(fmt, o[j]))[0]
        print("nan_sign_wide %s %s: bits %#x copysign(1, it) %r" % (np.dtype(dt).name, name, bits, float(s[j])))
