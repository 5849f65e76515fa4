# Algorithms that only real barriers, shared memory and atomics get right:
# a shared-memory tree reduction, a block-wide inclusive scan, a tiled matrix
# product, a histogram with atomics, and a dynamic-shared-memory reversal.
import numpy as np
from numba import cuda, float32, int32

rng = np.random.default_rng(42)
TPB = 128


@cuda.jit
def block_sum(x, partial):
    buf = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + t
    buf[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = buf[0]


x = rng.random(100_000).astype(np.float32)
blocks = (x.size + TPB - 1) // TPB
partial = np.zeros(blocks, np.float32)
block_sum[blocks, TPB](x, partial)
ref = np.array([x[i * TPB:(i + 1) * TPB].astype(np.float64).sum() for i in range(blocks)])
np.testing.assert_allclose(partial, ref, rtol=1e-5)


@cuda.jit
def block_scan(x, out):
    tmp = cuda.shared.array(TPB, int32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * TPB + t
    tmp[t] = x[i]
    cuda.syncthreads()
    offset = 1
    while offset < TPB:
        v = 0
        if t >= offset:
            v = tmp[t - offset]
        cuda.syncthreads()
        tmp[t] += v
        cuda.syncthreads()
        offset *= 2
    out[i] = tmp[t]


xi = rng.integers(-100, 100, TPB * 16).astype(np.int32)
scan = np.zeros_like(xi)
block_scan[16, TPB](xi, scan)
np.testing.assert_array_equal(scan, np.cumsum(xi.reshape(16, TPB), axis=1).reshape(-1))

TILE = 16


@cuda.jit
def matmul(A, B, C):
    sA = cuda.shared.array((TILE, TILE), float32)
    sB = cuda.shared.array((TILE, TILE), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = float32(0)
    for k0 in range(0, A.shape[1], TILE):
        sA[ty, tx] = A[y, k0 + tx] if y < A.shape[0] and k0 + tx < A.shape[1] else float32(0)
        sB[ty, tx] = B[k0 + ty, x] if x < B.shape[1] and k0 + ty < B.shape[0] else float32(0)
        cuda.syncthreads()
        for k in range(TILE):
            acc += sA[ty, k] * sB[k, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = acc


A = rng.random((70, 45)).astype(np.float32)
B = rng.random((45, 38)).astype(np.float32)
C = np.zeros((70, 38), np.float32)
matmul[((38 + TILE - 1) // TILE, (70 + TILE - 1) // TILE), (TILE, TILE)](A, B, C)
np.testing.assert_allclose(C, A.astype(np.float64) @ B.astype(np.float64), rtol=1e-4)

NBINS = 32


@cuda.jit
def histogram(data, hist):
    local = cuda.shared.array(NBINS, int32)
    t = cuda.threadIdx.x
    if t < NBINS:
        local[t] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < data.size:
        cuda.atomic.add(local, data[i] % NBINS, 1)
        i += stride
    cuda.syncthreads()
    if t < NBINS:
        cuda.atomic.add(hist, t, local[t])


data = rng.integers(0, 10_000, 200_000).astype(np.int64)
hist = np.zeros(NBINS, np.int32)
histogram[24, TPB](data, hist)
np.testing.assert_array_equal(hist, np.bincount(data % NBINS, minlength=NBINS))


@cuda.jit
def reverse_dynamic(x, out):
    buf = cuda.shared.array(0, float32)
    t = cuda.threadIdx.x
    n = cuda.blockDim.x
    base = cuda.blockIdx.x * n
    buf[t] = x[base + t]
    cuda.syncthreads()
    out[base + t] = buf[n - 1 - t]


xr = rng.random(64 * 10).astype(np.float32)
outr = np.zeros_like(xr)
reverse_dynamic[10, 64, 0, 64 * 4](xr, outr)
np.testing.assert_array_equal(outr, xr.reshape(10, 64)[:, ::-1].reshape(-1))


@cuda.jit
def count_positive(x, counts):
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + t
    c = cuda.syncthreads_count(x[i] > 0)
    a = cuda.syncthreads_and(x[i] > -1000)
    o = cuda.syncthreads_or(x[i] > 0.99)
    if t == 0:
        counts[cuda.blockIdx.x, 0] = c
        counts[cuda.blockIdx.x, 1] = a
        counts[cuda.blockIdx.x, 2] = 1 if o else 0


xs = rng.standard_normal(TPB * 8).astype(np.float32)
counts = np.zeros((8, 3), np.int32)
count_positive[8, TPB](xs, counts)
blocks_x = xs.reshape(8, TPB)
np.testing.assert_array_equal(counts[:, 0], (blocks_x > 0).sum(axis=1))
assert all(counts[:, 1] != 0)
np.testing.assert_array_equal(counts[:, 2] != 0, (blocks_x > 0.99).any(axis=1))
print("block algorithms ok")
