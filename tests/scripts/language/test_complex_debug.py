# Complex division by zero with debug=True raises ZeroDivisionError naming
# the thread, with the same text on both backends (a GPU kernel fills its
# error record; the host raises after the launch).
# stdout: complex debug ok
import numpy as np
from numba import cuda


@cuda.jit(debug=True)
def checked(a, q):
    i = cuda.grid(1)
    if i < a.size:
        q[i] = 1 / a[i]


rng = np.random.default_rng(5)
n = 100
a = rng.uniform(1, 2, n) + 1j * rng.uniform(-1, 1, n)
q = np.zeros(n, np.complex128)
checked[2, 64](a, q)
assert np.allclose(q, 1 / a, rtol=1e-14), "quotients"
a[37] = 0
try:
    checked[2, 64](a, q)
    raise AssertionError("no ZeroDivisionError report")
except ZeroDivisionError as e:
    assert str(e).endswith("tid=[37, 0, 0] ctaid=[0, 0, 0]: complex division by zero"), str(e)
print("complex debug ok")
