# A kernel with a thread-block cluster shape (cuda.jit(cluster_dim=...))
# captured into a graph keeps its cluster shape at every replay (the graph's
# kernel node carries the cluster dimension attribute): distributed shared
# memory reads a peer block's values, checked against NumPy on random data,
# after the capture and again after set_args with new arrays.
# backends: cuda
# stdout: capture clusters ok
import numpy as np
from numba import cuda, float32

from cuhost import graph

TPB = 64
BLOCKS = 16


@cuda.jit(cluster_dim=4)
def neighbour(x, out):
    buf = cuda.shared.array(TPB, float32)
    cluster = cuda.cg.this_cluster()
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] * 2.0
    rank = cluster.block_rank()
    cluster.sync()
    other = cluster.map_shared_rank(buf, (rank + 1) % cluster.num_blocks())
    out[i] = other[TPB - 1 - t]
    cluster.sync()


def expected(x):
    b = np.arange(BLOCKS)
    src = (b // 4) * 4 + (b % 4 + 1) % 4
    return (x.reshape(BLOCKS, TPB)[src, ::-1] * 2.0).reshape(-1)


rng = np.random.default_rng(33)
s = cuda.stream()
x = cuda.to_device(rng.standard_normal(BLOCKS * TPB).astype(np.float32))
out = cuda.device_array(BLOCKS * TPB, np.float32)
with graph.capture(s) as g:
    neighbour[BLOCKS, TPB, s](x, out)
for _ in range(2):
    out.copy_to_device(np.zeros(BLOCKS * TPB, np.float32))
    g.launch()
    s.synchronize()
    assert np.array_equal(out.copy_to_host(), expected(x.copy_to_host()))
x2 = cuda.to_device(rng.standard_normal(BLOCKS * TPB).astype(np.float32))
out2 = cuda.device_array(BLOCKS * TPB, np.float32)
g.kernels[0].set_args(x2, out2)
g.launch()
s.synchronize()
assert np.array_equal(out2.copy_to_host(), expected(x2.copy_to_host()))
print("capture clusters ok")
