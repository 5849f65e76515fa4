# A captured graph's kernel nodes carry the cluster shape of a kernel jitted
# with cluster_dim (the capture records cuLaunchKernelEx's
# CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION in the node; the null driver keeps it
# per node and refuses a graph launch whose node grid is not a whole number
# of clusters, as a launch is refused); set_args keeps the shape and refuses
# a grid of part clusters before the driver is asked; a whole-graph update
# keeps it too.
# backends: cuda
# stdout: null driver graph clusters ok
import ctypes
import warnings

import numpy as np
from numba import cuda

from cuhost import graph

warnings.filterwarnings("ignore", message="Grid size")  # small grids on purpose
lib = ctypes.CDLL("libcuda.so.1")
lib.cuhost_null_graph_kernel_cluster.restype = ctypes.c_uint
lib.cuhost_null_graph_kernel_dim.restype = ctypes.c_uint


def cluster(kernel):
    return tuple(lib.cuhost_null_graph_kernel_cluster(kernel, i) for i in range(3))


def grid(kernel):
    return tuple(lib.cuhost_null_graph_kernel_dim(kernel, i) for i in range(3))


@cuda.jit(cluster_dim=(2, 1))
def ranks(out):
    c = cuda.cg.this_cluster()
    out[cuda.blockIdx.y, cuda.blockIdx.x] = c.block_rank()
    c.sync()


@cuda.jit
def fill(x, v):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = v


s = cuda.stream()
out = cuda.device_array((2, 4), np.int32)
out2 = cuda.device_array((2, 6), np.int32)
x = cuda.device_array(64, np.float32)
with graph.capture(s) as g:
    ranks[(4, 2), 32, s](out)
    fill[2, 32, s](x, 1.0)
g.launch()
s.synchronize()
assert cluster(0) == (2, 1, 1) and grid(0) == (4, 2, 1), (cluster(0), grid(0))
assert cluster(1) == (1, 1, 1), cluster(1)

g.kernels[0].set_args(out2, griddim=(6, 2))
g.launch()
s.synchronize()
assert cluster(0) == (2, 1, 1) and grid(0) == (6, 2, 1), (cluster(0), grid(0))
try:
    g.kernels[0].set_args(out, griddim=(3, 2))
    raise AssertionError("a graph node of 3 x 2 blocks in 2 x 1 clusters was accepted")
except ValueError as e:
    assert "is not a whole number of clusters" in str(e), str(e)

with graph.capture(s) as g2:
    ranks[(2, 2), 32, s](out)
    fill[1, 32, s](x, 2.0)
g.update(g2)
g.launch()
s.synchronize()
assert cluster(0) == (2, 1, 1) and grid(0) == (2, 2, 1), (cluster(0), grid(0))
print("null driver graph clusters ok")
