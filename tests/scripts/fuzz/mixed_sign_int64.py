# Regression from the differential fuzzer (tests/fuzz): numba types uint64
# with int64 arithmetic as int64 (its integer_binop_cases cover every
# (int64|uint64, int64|uint64) pair; the result is signed when either side
# is), so `&`, `|`, `^`, shifts and `%` of the pair compile and wrap. Only
# comparisons of uint64 with a signed integer go through float64 (numba's
# comparison cases pair a type with itself). cuhost used to type the
# arithmetic as float64 (NumPy's promotion) and rejected the bitwise forms.
# stdout: mixed-sign int64 ok
import numpy as np
from numba import cuda

M = 1 << 64


def s64(x):
    x %= M
    return x - M if x >= 1 << 63 else x


@cuda.jit
def k(o, a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        o[i, 0] = a[i] + c[i]
        o[i, 1] = a[i] | c[i]
        o[i, 2] = a[i] < c[i]
        o[i, 3] = (a[i] ^ c[i]) >> 3
        o[i, 4] = a[i] % c[i]
        o[i, 5] = a[i] // c[i]
        o[i, 6] = a[i] * c[i] - b[i]
        o[i, 7] = a[i] == c[i]
        o[i, 8] = a[i] & b[i]


rng = np.random.default_rng(19)
n = 64
a = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
a[:4] = [2**64 - 5, 2**63, 0, 2**64 - 1]
b = rng.integers(0, 2**32 - 1, n, dtype=np.uint32, endpoint=True)
c = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64, endpoint=True)
c[:4] = [-3, -1, 7, -1]
c[c == 0] = 5
o = np.zeros((n, 9), np.int64)
k[1, n](o, a, b, c)

for i in range(n):
    x, y, z = s64(int(a[i])), int(b[i]), int(c[i])   # int64 view of the uint64
    q = abs(x) // abs(z) * (1 if (x < 0) == (z < 0) else -1)
    if q * z != x and (x < 0) != (z < 0):
        q -= 1                                      # floor division
    want = [s64(x + z), x | z, float(int(a[i])) < float(z), s64(x ^ z) >> 3,
            s64(x - q * z), s64(q), s64(x * z - y), float(int(a[i])) == float(z), s64(x & y)]
    got = o[i].tolist()
    assert got == [int(w) for w in want], (i, int(a[i]), y, z, got, want)
print("mixed-sign int64 ok")
