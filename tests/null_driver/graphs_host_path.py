# cuhost.graph's CUDA code path over the null driver (null_cuda.cpp,
# null_graphs.cpp): the capture goes through cuStreamBeginCapture, launches
# and asynchronous copies become graph nodes, cuStreamEndCapture and
# cuGraphInstantiate make the executable graph, cuGraphLaunch replays it
# (the null driver performs the copies and logs the kernel nodes), node
# parameter updates go through cuGraphExecKernelNodeSetParams and whole-graph
# updates through cuGraphExecUpdate. The null driver's log, read through
# ctypes, shows what a GPU would have run.
# stdout: null driver graphs ok
import ctypes

import warnings

import numpy as np
from numba import cuda

from cuhost import graph

warnings.filterwarnings("ignore", message="Grid size")  # small grids on purpose

assert cuda.backend() == "cuda" and cuda.get_current_device().name == "cuhost null driver"
lib = ctypes.CDLL("libcuda.so.1")
lib.cuhost_null_graph_kernel_param.restype = ctypes.c_ulonglong
lib.cuhost_null_graph_kernel_dim.restype = ctypes.c_uint


def params(kernel, count):
    return [lib.cuhost_null_graph_kernel_param(kernel, i) for i in range(count)]


def dims(kernel):
    return [lib.cuhost_null_graph_kernel_dim(kernel, i) for i in range(7)]


def pointer(d):
    return d.__cuda_array_interface__["data"][0]


@cuda.jit
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= a


@cuda.jit(debug=True, opt=False)
def checked(x):
    x[cuda.grid(1)] = 1.0


N = 1000
x = cuda.to_device(np.arange(N, dtype=np.float64))
y = cuda.to_device(np.zeros(N))
z = cuda.device_array(N)
pinned = cuda.pinned_array(N)
pinned[:] = 7.0
s = cuda.stream()

with graph.capture(s) as g:
    scale[4, 256, s](x, 2.5)
    y.copy_to_device(x, stream=s)
    x.copy_to_device(pinned, stream=s)
    scale[(2, 3), (32, 4), s, 64](z, -1.0)
    z.copy_to_host(pinned, stream=s)
assert len(g) == 5 and g.node_count == 5 and len(g.kernels) == 2 and g.copy_count == 3
# Captured copies did not run.
assert np.array_equal(y.copy_to_host(), np.zeros(N)) and np.array_equal(pinned, np.full(N, 7.0))

launches = lib.cuhost_null_graph_launches()
g.launch()
s.synchronize()
assert lib.cuhost_null_graph_launches() == launches + 1
assert lib.cuhost_null_graph_kernel_count() == 2
# scale(x, 2.5): data, shape, stride, a
p0 = params(0, 4)
assert p0[:3] == [pointer(x), N, 8], p0
assert np.float64(2.5).view(np.uint64) == p0[3]
assert dims(0) == [4, 1, 1, 256, 1, 1, 0]
assert dims(1) == [2, 3, 1, 32, 4, 1, 64]
assert params(1, 1) == [pointer(z)]
# The copies ran in order: y = x (arange), x = 7, pinned = z.
assert np.array_equal(y.copy_to_host(), np.arange(N, dtype=np.float64))
assert np.array_equal(x.copy_to_host(), np.full(N, 7.0))

# set_args: cuGraphExecKernelNodeSetParams with the new values.
w = cuda.to_device(np.ones(N // 2))
g.kernels[0].set_args(w, 4.0, griddim=2)
g.launch()
assert params(0, 4)[:3] == [pointer(w), N // 2, 8] and dims(0)[:3] == [2, 1, 1]
assert np.float64(4.0).view(np.uint64) == params(0, 4)[3]

# update: cuGraphExecUpdate takes every node's parameters.
with graph.capture(s) as g2:
    scale[8, 128, s](z, 3.0)
    z.copy_to_device(x, stream=s)
    x.copy_to_device(pinned, stream=s)
    scale[1, 64, s](y, 1.0)
    y.copy_to_host(pinned, stream=s)
g.update(g2)
g.launch()
assert params(0, 1) == [pointer(z)] and dims(0)[:4] == [8, 1, 1, 128]
assert params(1, 1) == [pointer(y)]
with graph.capture(s) as g3:
    scale[8, 128, s](z, 3.0)
try:
    g.update(g3)
    raise SystemExit("update with another sequence succeeded")
except ValueError as e:
    assert "the graph has 5 captured operations, the new one 1" in str(e), e

# The capture refuses what the driver would refuse, before calling it.
with graph.capture(s) as g4:
    for op in (s.synchronize, cuda.synchronize, lambda: cuda.device_array(4), lambda: x.copy_to_host(),
               lambda: x.copy_to_device(np.zeros(N), stream=s), lambda: scale[1, 1, s](np.zeros(4), 1.0)):
        try:
            op()
            raise SystemExit("not refused: %r" % op)
        except graph.GraphCaptureError:
            pass
    scale[1, 32, s](x, 1.0)
assert len(g4.kernels) == 1

# A kernel compiled with checks: its error record is read after each graph launch.
with graph.capture(s) as g5:
    checked[1, 32, s](z)
g5.launch()
g5.launch(cuda.stream())

# Legacy streams cannot be captured; the default stream can.
try:
    graph.capture(cuda.legacy_default_stream()).__enter__()
    raise SystemExit("captured the legacy stream")
except graph.GraphCaptureError:
    pass
with graph.capture() as g6:
    scale[1, 32](x, 2.0)
g6.launch()
assert params(0, 1) == [pointer(x)]
print("null driver graphs ok")
