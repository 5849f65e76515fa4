"""A kernel run inside the user's environment: results checked against NumPy
on random data, and the NumPy that computed them named (the environment's)."""
import sys

import numpy as np
from numba import cuda


@cuda.jit
def saxpy_then_clip(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        v = a * x[i] + y[i]
        out[i] = min(max(v, -1.5), 1.5)


@cuda.jit
def count_true(flags, total):
    i = cuda.grid(1)
    if i < flags.size and flags[i]:
        cuda.atomic.add(total, 0, 1)


rng = np.random.default_rng(20261128)
n = 4099
x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
a = np.float32(0.75)
out = np.empty_like(x)
saxpy_then_clip[(n + 127) // 128, 128](a, x, y, out)
expected = np.clip(a * x + y, -1.5, 1.5)
np.testing.assert_allclose(out, expected, rtol=1e-6)

flags = rng.random(n) < 0.3
total = np.zeros(1, dtype=np.int64)
count_true[(n + 127) // 128, 128](cuda.to_device(flags), total)
assert total[0] == np.count_nonzero(flags), (total[0], np.count_nonzero(flags))
if int(np.__version__.split(".")[0]) >= 2:
    assert np.bool is np.bool_  # NumPy 2's alias, missing from NumPy 1.24
print("kernels ok under numpy", np.__version__, "from", np.__file__.rsplit("/numpy/", 1)[0], "prefix", sys.prefix)
