# Thread-block clusters (cuda.jit(cluster_dim=...), cuda.cg.this_cluster()):
# ranks and sizes, cluster.sync() and distributed shared memory
# (map_shared_rank) in 1-d and 2-d clusters, checked against NumPy on random
# data; a grid that is not a whole number of clusters, a cluster over the
# portable 8 blocks and a target below sm_90 are refused with clear errors.
# stdout: clusters: 7 checks passed
import numpy as np
from numba import cuda, float32, int32

rng = np.random.default_rng(90)
checks = 0
TPB = 64


@cuda.jit(cluster_dim=4)
def neighbour(x, out, ranks):
    buf = cuda.shared.array(TPB, float32)
    cluster = cuda.cg.this_cluster()
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] * 2.0
    rank = cluster.block_rank()
    size = cluster.num_blocks()
    cluster.sync()
    # The next block of the cluster, its shared array read in place.
    other = cluster.map_shared_rank(buf, (rank + 1) % size)
    out[i] = other[TPB - 1 - t]
    if t == 0:
        ranks[cuda.blockIdx.x, 0] = rank
        ranks[cuda.blockIdx.x, 1] = size
    cluster.sync()  # no block leaves while another may still read its memory


blocks = 16
x = rng.standard_normal(blocks * TPB).astype(np.float32)
out = np.zeros_like(x)
ranks = np.zeros((blocks, 2), np.int32)
neighbour[blocks, TPB](x, out, ranks)
b = np.arange(blocks)
assert (ranks[:, 0] == b % 4).all() and (ranks[:, 1] == 4).all(), ranks
checks += 1
src = (b // 4) * 4 + (b % 4 + 1) % 4  # the block each block reads from
expected = (x.reshape(blocks, TPB)[src, ::-1] * 2.0).reshape(-1)
assert (out == expected).all()
checks += 1


@cuda.jit(cluster_dim=(2, 2))
def cluster_sum(x, sums):
    # Each block sums its tile into shared memory; rank 0 adds the cluster's
    # four partial sums from its peers' shared memory.
    part = cuda.shared.array(1, float32)
    cluster = cuda.cg.this_cluster()
    t = cuda.threadIdx.x
    if t == 0:
        part[0] = 0.0
    cuda.syncthreads()
    bx, by = cuda.blockIdx.x, cuda.blockIdx.y
    cuda.atomic.add(part, 0, x[by, bx, t])
    cluster.sync()
    if cluster.block_rank() == 0 and t == 0:
        total = float32(0)
        for r in range(cluster.num_blocks()):
            total += cluster.map_shared_rank(part, r)[0]
        sums[by // 2, bx // 2] = total
    cluster.sync()


gx, gy = 6, 4
xs = rng.integers(-50, 50, (gy, gx, 32)).astype(np.float32)  # integers: the sums are exact in any order
sums = np.zeros((gy // 2, gx // 2), np.float32)
cluster_sum[(gx, gy), 32](xs, sums)
assert (sums == xs.sum(axis=2).reshape(gy // 2, 2, gx // 2, 2).sum(axis=(1, 3))).all(), sums
checks += 1


@cuda.jit
def lone(out):
    cluster = cuda.cg.this_cluster()
    if cuda.threadIdx.x == 0:
        out[cuda.blockIdx.x] = cluster.num_blocks() * 10 + cluster.block_rank()


lone_out = np.full(3, -1, np.int32)
lone[3, 32](lone_out)
assert (lone_out == 10).all(), lone_out  # without cluster_dim every block is a cluster of one
checks += 1

try:
    neighbour[6, TPB](np.zeros(6 * TPB, np.float32), np.zeros(6 * TPB, np.float32), np.zeros((6, 2), np.int32))
    raise AssertionError("a grid of 6 blocks in clusters of 4 ran")
except ValueError as e:
    assert "kernel 'neighbour' runs in clusters of (4, 1, 1) blocks (cluster_dim), but its grid (6, 1, 1) is not a " \
           "whole number of clusters" in str(e), str(e)
checks += 1

try:
    cuda.jit(cluster_dim=(4, 4))(lone)
    raise AssertionError("a cluster of 16 blocks was accepted")
except ValueError as e:
    assert "cluster_dim (4, 4) makes clusters of 16 blocks, more than the portable limit of 8 blocks per cluster" \
        in str(e), str(e)
checks += 1


def rank_on_ampere(out):
    out[0] = cuda.cg.this_cluster().block_rank()


try:
    cuda.compile_ptx(rank_on_ampere, (int32[::1],), cc=(8, 0))
    raise AssertionError("clusters compiled for sm_80")
except Exception as e:  # noqa: BLE001 - the class is checked by name
    assert type(e).__name__ == "TypingError", (type(e).__name__, str(e))
    assert "cuda.cg.this_cluster() needs thread-block clusters, which compute capability 9.0 (sm_90) and newer " \
           "have; this kernel is compiled for 8.0" in str(e), str(e)
checks += 1
print("clusters: %d checks passed" % checks)
