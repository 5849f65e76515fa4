# On a GPU: gpus, get_current_device and its attributes (name as bytes, like numba).
# backends: cuda
# stdout: cuda device ok
from numba import cuda

assert cuda.is_available() and len(cuda.gpus) >= 1
dev = cuda.get_current_device()
assert isinstance(dev.name, str) and len(dev.name) > 0
assert dev.id == 0 and cuda.gpus[0] == dev
cc = dev.compute_capability
assert isinstance(cc, tuple) and cc >= (7, 0), cc
assert dev.WARP_SIZE == 32
assert dev.MAX_THREADS_PER_BLOCK == 1024
assert dev.MULTIPROCESSOR_COUNT > 0 and dev.MAX_SHARED_MEMORY_PER_BLOCK >= 48 * 1024
try:
    dev.NOT_AN_ATTRIBUTE
    raise SystemExit("unknown attribute answered")
except AttributeError as err:
    assert str(err) == "'Device' object has no attribute 'NOT_AN_ATTRIBUTE'"
with cuda.gpus[0]:
    assert cuda.get_current_device().id == 0
assert cuda.select_device(0).id == 0
try:
    cuda.select_device(len(cuda.gpus))
    raise SystemExit("bad ordinal accepted")
except cuda.CudaSupportError as err:
    assert "no CUDA device %d" % len(cuda.gpus) in str(err)
print("cuda device ok")
