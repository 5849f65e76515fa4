"""numba itself (installed in the environment) and cuhost in one process:
numba's njit(parallel=True) with prange compiled and run by numba, a cuhost
kernel beside it, both checked against NumPy on random data."""
import numpy as np
import numba
from numba import cuda, njit, prange

assert not numba.__version__.startswith("0.0.0+cuhost"), numba.__version__


@njit(parallel=True)
def row_norms(a):
    out = np.empty(a.shape[0])
    for i in prange(a.shape[0]):
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j] * a[i, j]
        out[i] = np.sqrt(acc)
    return out


@cuda.jit
def scale_rows(a, norms, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] / norms[i]


rng = np.random.default_rng(7)
a = rng.standard_normal((257, 33))
norms = row_norms(a)
np.testing.assert_allclose(norms, np.linalg.norm(a, axis=1), rtol=1e-12)
assert type(row_norms).__module__.startswith("numba.core"), type(row_norms)
print("prange ok", numba.get_num_threads() >= 1)

out = np.empty_like(a)
scale_rows[(9, 2), (32, 32)](a, norms, out)
np.testing.assert_allclose(out, a / np.linalg.norm(a, axis=1)[:, None], rtol=1e-12)
print("kernel ok")
