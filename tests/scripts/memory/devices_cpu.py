# Without a GPU the CPU backend is the one device: cuda.gpus[0], compute
# capability 9.0 and the launch limits it enforces, host memory as its memory;
# is_available() stays False (no CUDA driver or GPU is usable).
# backends: cpu
# stdout: devices ok
import os

import numpy as np
from numba import cuda

assert not cuda.is_available()
assert len(cuda.gpus) == 1 and cuda.list_devices() == [cuda.gpus[0]]
dev = cuda.get_current_device()
assert dev == cuda.gpus[0] == cuda.gpus[-1] and dev.id == 0
assert isinstance(dev.name, str) and dev.name.startswith("cuhost CPU backend"), dev.name
assert dev.compute_capability == (9, 0)
assert dev.MAX_THREADS_PER_BLOCK == 1024 and dev.WARP_SIZE == 32
assert (dev.MAX_BLOCK_DIM_X, dev.MAX_BLOCK_DIM_Y, dev.MAX_BLOCK_DIM_Z) == (1024, 1024, 64)
assert dev.MAX_SHARED_MEMORY_PER_BLOCK == 48 * 1024
assert 1 <= dev.MULTIPROCESSOR_COUNT <= (os.cpu_count() or 1)
free, total = cuda.current_context().get_memory_info()
assert 0 < free <= total, (free, total)
assert cuda.select_device(0) == dev
with cuda.gpus[0] as d:
    assert d == dev
try:
    cuda.select_device(1)
    raise SystemExit("select_device(1) succeeded on the CPU backend")
except cuda.CudaSupportError as err:
    assert str(err) == "no device 1: the CPU backend has one device, 0 (the CPU)", str(err)
try:
    cuda.gpus[1]
    raise SystemExit("gpus[1] succeeded on the CPU backend")
except IndexError as err:
    assert str(err) == "device index 1 out of range (1 device(s))", str(err)


# The limits the device reports are the ones launches are checked against.
@cuda.jit
def fill(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i


a = cuda.device_array(dev.MAX_THREADS_PER_BLOCK, np.int64)
fill[1, dev.MAX_THREADS_PER_BLOCK](a)
assert (a.copy_to_host() == np.arange(a.size)).all()
try:
    fill[1, dev.MAX_THREADS_PER_BLOCK + 1](a)
    raise SystemExit("an oversized block was launched")
except cuda.CudaAPIError as err:
    assert str(err).endswith("exceeds the limit of 1024 threads per block"), str(err)
cuda.close()
print("devices ok")
