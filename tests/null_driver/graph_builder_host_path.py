# cuda.core's GraphBuilder on the CUDA code path over the null driver: the
# launches queued on the builder between begin_building() and end_building()
# become kernel nodes of a CUDA graph (cuStreamBeginCapture on the builder's
# own stream), a copy on the builder is a copy node, nothing runs before the
# Graph is launched, and Graph.launch(stream) is one cuGraphLaunch with the
# kernel's parameters and dimensions (read from the null driver's log).
# stdout: null driver graph builder ok
import ctypes
import warnings

import numpy as np
from numba import cuda
from cuda.core import Device

warnings.filterwarnings("ignore", message="Grid size")
assert cuda.backend() == "cuda"
lib = ctypes.CDLL("libcuda.so.1")
lib.cuhost_null_graph_kernel_param.restype = ctypes.c_ulonglong
lib.cuhost_null_graph_kernel_dim.restype = ctypes.c_uint


@cuda.jit
def iota(a):
    i = cuda.grid(1)
    if i < len(a):
        a[i] = i


dev = Device()
dev.set_current()
stream = dev.create_stream()
N = 100
ary = cuda.to_device(np.zeros(N, np.int64), stream=stream)
src = cuda.to_device(np.arange(N, dtype=np.int64) * 3, stream=stream)
stream.sync()

builder = dev.create_graph_builder()
builder.begin_building()
iota[1, 128, builder](ary)
ary.copy_to_device(src, stream=builder)
graph = builder.end_building().complete()
assert np.array_equal(ary.copy_to_host(), np.zeros(N)), "the captured copy ran before the launch"

launches = lib.cuhost_null_graph_launches()
graph.launch(stream)
stream.sync()
assert lib.cuhost_null_graph_launches() == launches + 1
assert lib.cuhost_null_graph_kernel_count() == 1
assert lib.cuhost_null_graph_kernel_param(0, 0) == ary.__cuda_array_interface__["data"][0]
assert [lib.cuhost_null_graph_kernel_dim(0, i) for i in range(7)] == [1, 1, 1, 128, 1, 1, 0]
assert np.array_equal(ary.copy_to_host(), np.arange(N) * 3)  # the copy node ran (kernels do not, here)
print("null driver graph builder ok")
