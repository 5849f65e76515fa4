# The part of cuda-python's cuda.core that numba-cuda code uses, over cuhost:
# Device (set_current, create_stream, compute_capability), Stream
# (from_handle, sync, handle, __cuda_stream__) accepted wherever cuhost takes
# a stream (launches, copies, events), LaunchConfig, ObjectCode, and the
# version checks of numba.cuda._compat.
# stdout: cuda.core ok
import numpy as np
from numba import cuda
from numba.cuda._compat import CUDA_CORE_GE_1_0, CUDA_CORE_GT_0_6
from cuda.core import Device, LaunchConfig, ObjectCode, Stream

assert CUDA_CORE_GE_1_0 and CUDA_CORE_GT_0_6
dev = Device()
dev.set_current()
assert dev.device_id == cuda.get_current_device().id
assert tuple(dev.compute_capability) == cuda.get_current_device().compute_capability
assert dev.uuid == cuda.get_current_device().uuid[len("GPU-"):]
stream = dev.create_stream()
assert stream.__cuda_stream__() == (0, stream.handle) and stream.handle != 0


@cuda.jit
def iota(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i * 2


a = cuda.to_device(np.zeros(100, dtype=np.int64), stream=stream)
iota[1, 128, stream](a)
start, end = cuda.event(), cuda.event()
start.record(stream=stream)
host = a.copy_to_host(stream=stream)
end.record(stream=stream)
stream.sync()
end.synchronize()
assert start.elapsed_time(end) >= 0
assert (host == np.arange(100) * 2).all()

same = Stream.from_handle(stream.handle)
assert same == stream and same.handle == stream.handle
numba_stream = cuda.stream()
assert Device().create_stream(numba_stream).handle == numba_stream.handle

config = LaunchConfig(grid=(2, 1), block=64, shmem_size=0, is_cooperative=False)
assert config.grid == (2, 1, 1) and config.block == (64, 1, 1) and not config.cooperative_launch
try:
    LaunchConfig(grid=0)
    raise SystemExit("an empty grid was accepted")
except ValueError:
    pass

code = ObjectCode.from_ptx(".version 8.0", name="x")
assert code.code_type == "ptx" and code.name == "x"
try:
    code.handle
    raise SystemExit("an unloaded ObjectCode has a handle")
except RuntimeError:
    pass
assert hasattr(dev.create_graph_builder(), "begin_building")  # graphs/cuda_core_graph_builder.py tests it
print("cuda.core ok")
