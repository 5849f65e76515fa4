"""stumpy, a library that uses numba on the CPU (njit, parallel=True) and
numba.cuda on the GPU, inside cuhost with numba installed: stumpy.stump runs
on numba's own parallel CPU code, gpu_stump on cuhost's kernels, and both
agree with a brute-force matrix profile on random data."""
import numpy as np
from numba import cuda

if cuda.backend() == "cpu":
    # stumpy defines its gpu_* functions only where numba.cuda says a GPU is
    # available; on cuhost's CPU backend its kernels run as well.
    cuda.is_available = lambda: True
import stumpy  # noqa: E402

rng = np.random.default_rng(11)
T = rng.random(600)
m = 50


def znorm(x):
    return (x - x.mean()) / x.std()


exclusion = int(np.ceil(m / 4))
rows = (0, 137, 400, len(T) - m)
reference = []
for i in rows:
    q = znorm(T[i:i + m])
    d = np.array([np.linalg.norm(q - znorm(T[j:j + m])) for j in range(len(T) - m + 1)])
    d[max(0, i - exclusion):i + exclusion + 1] = np.inf
    reference.append((d.min(), d.argmin()))

cpu = stumpy.stump(T, m=m)
gpu = stumpy.gpu_stump(T, m=m)
for (distance, index), i in zip(reference, rows):
    assert np.isclose(cpu[i, 0], distance) and cpu[i, 1] == index, (i, cpu[i, :2], distance, index)
np.testing.assert_allclose(gpu[:, 0].astype(float), cpu[:, 0].astype(float), rtol=1e-7, atol=1e-7)
assert (gpu[:, 1] == cpu[:, 1]).all()
print("stump and gpu_stump ok", stumpy.__version__)
