# Arithmetic of a small integer with a float32 computes in the type numba's
# overload resolution picks, which is not always NumPy's promotion: bool,
# int8, uint8 and int16 convert safely to float32 (float32 arithmetic), but
# uint16 reaches float32 only unsafely, so uint16 with float32 computes in
# float64 (NumPy: float32). Unification (a ternary) keeps NumPy's float32.
# Types are numba 0.68's (njit, checked against numba itself); a kernel
# checks values on random data.
# stdout: small int with float32 ok
import numpy as np
from numba import cuda, njit

NUMBA = {"bool_": "float32", "int8": "float32", "uint8": "float32", "int16": "float32", "uint16": "float64",
         "int32": "float64"}
OPS = ["a - b", "b * a", "a / b", "a // b", "a % b", "a ** b", "a + b"]

problems = []
for dt, want in NUMBA.items():
    for op in OPS:
        g = {}
        exec("def f(a, b):\n    return %s\n" % op, g)
        f = njit(g["f"])
        f(np.array([1], dtype=dt)[0], np.float32(2.0))
        got = str(f.nopython_signatures[0].return_type)
        if got != want:
            problems.append("%s %s: %s, numba %s" % (dt, op, got, want))
g = {}
exec("def f(a, b, c):\n    return a if c else b\n", g)
f = njit(g["f"])
f(np.uint16(3), np.float32(2.0), True)
if str(f.nopython_signatures[0].return_type) != "float32":
    problems.append("uint16/float32 ternary: %s, numba float32" % f.nopython_signatures[0].return_type)
assert not problems, "\n".join(problems)


@cuda.jit
def kernel(u, s, f, out):
    i = cuda.grid(1)
    if i < u.size:
        out[i, 0] = u[i] - f[i]  # float64
        out[i, 1] = s[i] - f[i]  # float32, widened by the store


rng = np.random.default_rng(5)
u = rng.integers(1000, 65535, 256).astype(np.uint16)
s = rng.integers(-32768, 32767, 256).astype(np.int16)
f = (rng.random(256) * 3).astype(np.float32) + np.float32(0.1)
out = np.zeros((256, 2))
kernel[2, 128](u, s, f, out)
assert np.array_equal(out[:, 0], u.astype(np.float64) - f.astype(np.float64)), out[:, 0]
assert np.array_equal(out[:, 1], (s.astype(np.float32) - f).astype(np.float64)), out[:, 1]
# The two differ somewhere: float32 rounding of uint16 - float32 would show.
assert not np.array_equal(out[:, 0], (u.astype(np.float32) - f).astype(np.float64))
print("small int with float32 ok")
