# Regression from the differential fuzzer (tests/fuzz): float `//` by zero,
# which raises nothing in kernels (numba's numpy error model), gives x / y
# (+inf, -inf or nan), as numba's real_floordiv_impl and NumPy's
# floor_divide; `%` by zero gives nan. cuhost returned nan for the quotient.
# stdout: float floordiv by zero ok
import numpy as np
from numba import cuda


@cuda.jit
def k(q, m, x, y):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // y[i]
        m[i] = x[i] % y[i]


@cuda.jit
def k32(q, x, y):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // y[i]


rng = np.random.default_rng(1919)
n = 200
x = rng.standard_normal(n) * 100
y = rng.standard_normal(n) * 10
y[::3] = 0.0
y[1::7] = -0.0
x[::11] = 0.0
x[5::13] = np.inf
y[7::17] = np.inf
q = np.zeros(n)
m = np.zeros(n)
k[2, 128](q, m, x, y)
with np.errstate(all="ignore"):
    wq = np.floor_divide(x, y)
    wm = np.remainder(x, y)
assert np.array_equal(q, wq, equal_nan=True), [(a, b, c, d) for a, b, c, d in zip(x, y, q, wq) if not (c == d or c != c and d != d)][:5]
assert np.array_equal(m, wm, equal_nan=True)
assert np.isinf(q[y == 0][x[y == 0] != 0]).all()

x32, y32 = x.astype(np.float32), y.astype(np.float32)
q32 = np.zeros(n, np.float32)
k32[2, 128](q32, x32, y32)
with np.errstate(all="ignore"):
    assert np.array_equal(q32, np.floor_divide(x32, y32), equal_nan=True)
print("float floordiv by zero ok")
