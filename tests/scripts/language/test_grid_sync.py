# Cooperative groups: cuda.cg.this_grid().sync() is a grid-wide barrier (each
# row of the matrix is written from the previous row of other blocks), the
# kernel is marked cooperative and launches beyond max_cooperative_grid_blocks
# are refused, as CUDA refuses them.
# sanitizer-expects: CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
import numpy as np
from numba import cuda, int32


@cuda.jit
def rows(M, seed):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    cols = M.shape[1]
    M[0, col] = seed[col]
    g.sync()
    for row in range(1, M.shape[0]):
        M[row, col] = M[row - 1, cols - col - 1] * 3 + M[row - 1, (col + 7) % cols] + 1
        g.sync()


@cuda.jit
def plain(a):
    a[cuda.grid(1)] = 1


rng = np.random.default_rng(3)
blocks, threads = 6, 32
n = blocks * threads
seed = rng.integers(0, 1000, n).astype(np.int64)
M = np.zeros((20, n), np.int64)
rows[blocks, threads](M, seed)
ref = np.zeros_like(M)
ref[0] = seed
for r in range(1, M.shape[0]):
    for c in range(n):
        ref[r, c] = ref[r - 1, n - c - 1] * 3 + ref[r - 1, (c + 7) % n] + 1
assert np.array_equal(M, ref)

ov = next(iter(rows.overloads.values()))
assert ov.cooperative
plain[1, 32](np.zeros(32, np.int32))
assert not next(iter(plain.overloads.values())).cooperative
limit = ov.max_cooperative_grid_blocks(threads)
assert limit >= 1 and limit == ov.max_cooperative_grid_blocks((8, 4))
try:
    rows[limit + 1, threads](np.zeros((2, (limit + 1) * threads), np.int64), np.zeros((limit + 1) * threads))
except Exception as e:  # CUDA: CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
    assert "resident" in str(e) or "COOPERATIVE" in str(e), e
else:
    raise AssertionError("an oversized cooperative launch was accepted")
print("ok")
