# Per-thread local arrays (1-d and 2-d) and constant arrays made from global
# NumPy arrays with cuda.const.array_like; global arrays read as constants.
import numpy as np
from numba import cuda, float64, int32

rng = np.random.default_rng(13)
WEIGHTS = rng.random(8)
TABLE = np.arange(10, dtype=np.int32) * 3


@cuda.jit
def local_sort_and_weights(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        tmp = cuda.local.array(8, float64)
        for k in range(8):
            tmp[k] = x[i, k]
        # insertion sort in local memory
        for k in range(1, 8):
            v = tmp[k]
            j = k - 1
            while j >= 0 and tmp[j] > v:
                tmp[j + 1] = tmp[j]
                j -= 1
            tmp[j + 1] = v
        w = cuda.const.array_like(WEIGHTS)
        s = 0.0
        for k in range(8):
            s += tmp[k] * w[k]
            out[i, k] = tmp[k]
        out[i, 8] = s
        grid = cuda.local.array((2, 3), int32)
        for r in range(2):
            for c in range(3):
                grid[r, c] = r * 10 + c
        out[i, 9] = grid[1, 2] + TABLE[i % 10]


x = rng.random((100, 8))
out = np.zeros((100, 10))
local_sort_and_weights[4, 32](x, out)
xs = np.sort(x, axis=1)
np.testing.assert_allclose(out[:, :8], xs)
np.testing.assert_allclose(out[:, 8], xs @ WEIGHTS, rtol=1e-12)
np.testing.assert_array_equal(out[:, 9], 12 + TABLE[np.arange(100) % 10])
print("local and const arrays ok")
