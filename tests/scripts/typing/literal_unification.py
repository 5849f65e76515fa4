# A literal meets a typed value in min/max, conditional expressions, if/else
# joins and return-type unification as numba 0.68 unifies them: the literal
# counts as its own type (an int as int64, or uint64 from 2**63 on; True as
# bool; a float as float64) and the pair is NumPy's promotion, so uint64 with
# 5 is float64 and uint8 with 5 is int64. The table below is numba's answer
# (njit, checked against numba itself), the same for every form; the if-join
# form depends on one type per SSA version of a variable. A kernel then
# checks values on random data.
# stdout: literal unification ok
import numpy as np
from numba import cuda, njit

DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "bool_"]
LITERALS = ["5", "-5", "127", "200", "2147483647", "1099511627776", "9223372036854775807", "9223372036854775808",
            "True", "1.5"]
# numba: unify(array element type, literal), row per dtype, column per literal.
NUMBA = {
    "int8": "int64 int64 int64 int64 int64 int64 int64 float64 int8 float64",
    "int16": "int64 int64 int64 int64 int64 int64 int64 float64 int16 float64",
    "int32": "int64 int64 int64 int64 int64 int64 int64 float64 int32 float64",
    "int64": "int64 int64 int64 int64 int64 int64 int64 float64 int64 float64",
    "uint8": "int64 int64 int64 int64 int64 int64 int64 uint64 uint8 float64",
    "uint16": "int64 int64 int64 int64 int64 int64 int64 uint64 uint16 float64",
    "uint32": "int64 int64 int64 int64 int64 int64 int64 uint64 uint32 float64",
    "uint64": "float64 float64 float64 float64 float64 float64 float64 uint64 uint64 float64",
    "float32": "float64 float64 float64 float64 float64 float64 float64 float64 float32 float64",
    "float64": "float64 float64 float64 float64 float64 float64 float64 float64 float64 float64",
    "bool_": "int64 int64 int64 int64 int64 int64 int64 uint64 bool float64",
}
FORMS = {
    "max": "def f(u, c):\n    return max(u[0], {L})\n",
    "max reversed": "def f(u, c):\n    return max({L}, u[0])\n",
    "min": "def f(u, c):\n    return min(u[0], {L})\n",
    "ternary": "def f(u, c):\n    return u[0] if c else {L}\n",
    "ternary reversed": "def f(u, c):\n    return {L} if c else u[0]\n",
    "return join": "def f(u, c):\n    if c:\n        return u[0]\n    return {L}\n",
    "if join": "def f(u, c):\n    if c:\n        x = u[0]\n    else:\n        x = {L}\n    return x\n",
}

problems = []
for form, src in FORMS.items():
    for dt in DTYPES:
        for lit, want in zip(LITERALS, NUMBA[dt].split()):
            g = {}
            exec(src.format(L=lit), g)
            f = njit(g["f"])
            f(np.ones(2, dtype=dt), True)
            got = str(f.nopython_signatures[0].return_type)
            if got != want:
                problems.append("%s %s %s: %s, numba %s" % (form, dt, lit, got, want))
assert not problems, "\n".join(problems)


# Values: uint64 above 2**53 stay exact where numba keeps uint64 and are
# rounded through float64 where numba unifies with a signed literal.
# A float with an int literal: numba's generic min/max, in Python's order
# (the first argument stays unless the next is strictly better), so a NaN
# first argument is the result; numba-cuda's fmin/fmax are for two floats.
@cuda.jit
def nan_first(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = max(x[i], 5)
        out[i, 1] = min(x[i], 5)
        out[i, 2] = max(5, x[i])


@cuda.jit
def kernel(u, c, exact, rounded, small):
    i = cuda.grid(1)
    if i < u.size:
        exact[i] = max(u[i], 9223372036854775808)  # uint64 with a uint64 literal
        rounded[i] = u[i] if c[i] else 5  # uint64 with int64: float64
        small[i] = min(np.uint8(u[i] & 255), 200)  # uint8 with int64: int64


rng = np.random.default_rng(7)
u = rng.integers(2**53, 2**62, 300, dtype=np.uint64) | np.uint64(1)
u[::3] += np.uint64(2**63)
c = rng.random(300) < 0.5
exact = np.zeros(300, np.uint64)
rounded = np.zeros(300, np.float64)
small = np.zeros(300, np.int64)
kernel[3, 128](u, c, exact, rounded, small)
assert np.array_equal(exact, np.maximum(u, np.uint64(2**63))), exact
assert np.array_equal(rounded, np.where(c, u.astype(np.float64), 5.0)), rounded
assert np.array_equal(small, np.minimum(u & np.uint64(255), 200).astype(np.int64)), small
x = rng.standard_normal(64) * 10
x[::4] = np.nan
out = np.zeros((64, 3))
nan_first[1, 64](x, out)
py = np.array([[max(v, 5), min(v, 5), max(5, v)] for v in x.tolist()])
assert np.array_equal(out, py, equal_nan=True), (out, py)
print("literal unification ok")
