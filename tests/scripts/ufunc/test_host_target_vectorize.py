# numba.vectorize with numba's host targets (the default "cpu", "parallel"):
# cuhost has no CPU compiler, so the ufunc applies the Python function through
# NumPy; results and dtypes follow the declared loops (checked against NumPy
# on random data), a signature-less ufunc takes its results' type, out= and
# reduce work.
# stdout: host vectorize ok
import math

import numpy as np
from numba import vectorize

rng = np.random.default_rng(21)


@vectorize(["float32(float32, float32)", "float64(float64, float64)", "int64(int64, int64)"])
def add(a, b):
    return a + b


for dt in (np.float32, np.float64, np.int64):
    a = (rng.standard_normal(100) * 50).astype(dt)
    b = (rng.standard_normal(100) * 50).astype(dt)
    r = add(a, b)
    assert r.dtype == dt, (r.dtype, dt)
    np.testing.assert_allclose(r, a + b, rtol=1e-6)
r = add(np.arange(4, dtype=np.int32), np.arange(4, dtype=np.int32))
assert r.dtype == np.float64 and list(r) == [0, 2, 4, 6]  # the first loop int32 casts to safely (NumPy)
assert add(1.5, 2.25) == 3.75
out = np.zeros(100)
x = rng.standard_normal(100)
assert add(x, x, out=out) is out
np.testing.assert_allclose(out, 2 * x)
v = rng.integers(-100, 100, 37)
assert add.reduce(v) == v.sum()


@vectorize(target="parallel")
def erf(x):
    return math.erf(x)


xs = rng.uniform(-3, 3, 64)
np.testing.assert_allclose(erf(xs), [math.erf(t) for t in xs], rtol=1e-15)
np.testing.assert_allclose(erf(xs.reshape(8, 8)), np.array([math.erf(t) for t in xs]).reshape(8, 8), rtol=1e-15)
try:
    add(np.zeros(3, np.complex128), np.zeros(3, np.complex128))
except TypeError as e:
    assert "not supported for the input types" in str(e), e
else:
    raise AssertionError("complex inputs accepted")
print("host vectorize ok")
