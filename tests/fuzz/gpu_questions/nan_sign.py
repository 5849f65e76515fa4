# GPU question (docs/RELIABILITY.md, CPU-against-CUDA triage): the sign of
# the NaN each operation makes, and what copysign takes from it. The CPU
# backend gives x86's default NaN (negative). Seeds 1418, 3622, 5011,
# 11555, 11896, 14706, 15896, 18261 differed by a NaN's sign; the H200
# answered negative for these float64 operations too, except `(-1)**0.5`
# (negative on the GPU, positive on the CPU): the second batch traced the
# positive NaNs to float32 operations (nan_sign_wide.py asks them). Prints
# one line per operation.
import struct

import numpy as np
from numba import cuda


@cuda.jit
def k(o, x):
    zero, neg, inf = x[0], x[1], x[2]
    vals = (zero / zero, neg ** 0.5, zero % zero, zero // zero, inf - inf, zero * inf, np.sqrt(neg))
    for j in range(7):
        o[0, j] = vals[j]
        o[1, j] = np.copysign(1.0, vals[j])


o = np.zeros((2, 7))
k[1, 1](o, np.array([0.0, -1.0, np.inf]))
names = ["0/0", "(-1)**0.5", "0%0", "0//0", "inf-inf", "0*inf", "sqrt(-1)"]
for j, name in enumerate(names):
    bits = struct.unpack("<Q", struct.pack("<d", o[0, j]))[0]
    print("nan_sign %s: bits %#018x copysign(1, it) %r" % (name, bits, o[1, j]))
