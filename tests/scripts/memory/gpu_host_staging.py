# Host NumPy arguments on a GPU: C-contiguous ones travel together through
# one page-locked staging block per stream (one copy in, one copy back);
# non-contiguous or very large ones take the general path. Either way the
# results equal NumPy's, read-only arrays are never written, and the block
# grows when a launch needs more.
# backends: cuda
# stdout: gpu staging ok
import numpy as np
from numba import cuda


@cuda.jit
def combine(out, a, b, scale):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * scale + b[i]


@cuda.jit
def add_rows(m, v):
    i, j = cuda.grid(2)
    if i < m.shape[0] and j < m.shape[1]:
        m[i, j] += v[j]


rng = np.random.default_rng(99)
for n in (1, 100, 1024, 70000, 2_000_000):  # the last ones grow the block, then exceed it
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    b.flags.writeable = False
    out = np.full(n, np.nan, np.float32)
    combine[(n + 255) // 256, 256](out, a, b, np.float32(1.5))
    np.testing.assert_allclose(out, a * np.float32(1.5) + b, rtol=1e-6, atol=1e-6)  # fma: rounded once

# Mixed: a contiguous array with a strided view (general path for the launch).
a = rng.standard_normal(512)
b_full = rng.standard_normal(1024)
out = np.zeros(512)
combine[2, 256](out, a, b_full[::2], 2.0)
np.testing.assert_allclose(out, a * 2.0 + b_full[::2])

m = rng.integers(-100, 100, (33, 65)).astype(np.int16)
v = rng.integers(-100, 100, 65).astype(np.int16)
expected = m + v
add_rows[(3, 5), (16, 16)](m, v)
np.testing.assert_array_equal(m, expected)

# Many launches in a row reuse the same staging block; the same array passed
# twice (out and input) shares one device copy, as it would on the host.
acc = np.zeros(300, np.float64)
ones = np.ones(300)
for _ in range(50):
    combine[2, 256](acc, acc, ones, 1.0)
np.testing.assert_array_equal(acc, np.full(300, 50.0))
print("gpu staging ok")
