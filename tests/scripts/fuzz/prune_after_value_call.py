# Regression from the differential fuzzer (tests/fuzz, seed 111673): a
# condition whose deciding operand is a literal after a call of a value
# function (`np.bool_(c) and False`, `math.isnan(x) or True`) is decided
# before typing, as numba decides it (CPython compiles the literal operand
# into a jump, so the other side of the conditional never reaches numba's
# IR), and the dead side takes no part in the result's type. cuhost left
# such conditions undecided for any call before the literal, typed both
# sides, unified uint64 with int64 to float64 and refused the `&` that
# follows (numba ran the program). NumPy scalar constructors, `math`
# functions and value builtins have no effect, so skipping them changes
# nothing; a call of a device function still keeps the condition
# undecided (it may have an effect; numba prunes and runs it).
# stdout: prune after value call ok
import math

import numpy as np
from numba import cuda


@cuda.jit
def k(o, s, u, x, c):
    i = cuda.grid(1)
    if i < s.size:
        # uint16 << int64 is uint64 in numba; the dead int64 side would make it float64
        o[i, 0] = ((s[i] >> 3) if (np.bool_(c[i]) and False) else (u[i] << (s[i] & 15))) & 0xFFFF
        o[i, 1] = ((u[i] << (s[i] & 15)) if (math.isnan(x[i]) or True) else (s[i] >> 2)) & 0xFFFF
        o[i, 2] = ((s[i] >> 3) if not (abs(x[i]) > 1.0 or True) else (u[i] << 3)) ^ u[i]


rng = np.random.default_rng(111673)
n = 256
s = rng.integers(-2**62, 2**62, n).astype(np.int64)
u = rng.integers(0, 2**16, n).astype(np.uint16)
x = rng.standard_normal(n) * 4
x[::7] = np.nan
c = rng.integers(0, 2, n).astype(np.bool_)
o = np.zeros((n, 3), np.int64)
k[2, 128](o, s, u, x, c)

for i in range(n):
    shifted = (int(u[i]) << (int(s[i]) & 15)) % 2**64
    want = [shifted & 0xFFFF, shifted & 0xFFFF, ((int(u[i]) << 3) ^ int(u[i])) % 2**64]
    want = [w - 2**64 if w >= 2**63 else w for w in want]
    assert [int(v) for v in o[i]] == want, (i, o[i].tolist(), want)
print("prune after value call ok")
