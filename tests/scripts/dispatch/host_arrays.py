# Host NumPy arguments: written results come back, including through
# non-contiguous views (a column of a 2-D array, a reversed view); read-only
# arrays are only read; 2-D arrays index with strides.
# stdout: host arrays ok
import numpy as np
from numba import cuda


@cuda.jit
def scale(a, s):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] * s


@cuda.jit
def add2d(out, m):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = m[i, j] + i * 100 + j


rng = np.random.default_rng(11)
base = rng.standard_normal((50, 6))
keep = base.copy()
col = base[:, 3]           # strided view
assert not col.flags.c_contiguous
scale[2, 32](col, 3.0)
expected = keep.copy()
expected[:, 3] *= 3.0
np.testing.assert_allclose(base, expected)

rev = base[::-1, 1]       # negative stride
scale[2, 32](rev, -1.0)
expected[:, 1] *= -1.0
np.testing.assert_allclose(base, expected)

m = rng.integers(0, 50, size=(7, 9)).astype(np.int64)
m.flags.writeable = False
out = np.zeros((9, 7), np.int64).T  # F-ordered output
add2d[(1, 1), (8, 16)](out, m)
ii, jj = np.indices(m.shape)
np.testing.assert_array_equal(out, m + ii * 100 + jj)
print("host arrays ok")
