"""numba itself (installed in the environment) and cuhost in one process:
numba's njit(parallel=True) with prange compiled and run by numba, a cuhost
kernel beside it whose signature is made of numba's own type objects and
which calls a numba @njit function (compiled for the device, as numba-cuda
does), all checked against NumPy on random data."""
import numpy as np
import numba
from numba import cuda, float64, njit, prange, void

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


@njit
def ratio(x, y):
    return x / y


@cuda.jit(void(float64[:, :], float64[::1], float64[:, :]))
def scale_rows(a, norms, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = ratio(a[i, j], norms[i]) + numba.float64(0)


rng = np.random.default_rng(7)
a = rng.standard_normal((257, 33))
norms = row_norms(a)
np.testing.assert_allclose(norms, np.linalg.norm(a, axis=1), rtol=1e-12)
assert type(row_norms).__module__.startswith("numba.core"), type(row_norms)
assert type(float64).__module__.startswith("numba.core.types"), type(float64)
print("prange ok", numba.get_num_threads() >= 1)

out = np.empty_like(a)
scale_rows[(9, 2), (32, 32)](a, norms, out)
assert [str(t) for t in scale_rows.signatures[0]] == ["array(float64, 2d, A)", "array(float64, 1d, C)",
                                                       "array(float64, 2d, A)"], scale_rows.signatures
np.testing.assert_allclose(out, a / np.linalg.norm(a, axis=1)[:, None], rtol=1e-12)
assert ratio(3.0, 2.0) == 1.5 and type(ratio).__name__ == "CPUDispatcher"  # still numba's on the host
print("kernel ok")
