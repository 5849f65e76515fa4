# A replaced driver copy entry point (numba's driver.cuMemcpyHtoD /
# cuMemcpyDtoH, synchronous copies on the legacy default stream) runs only
# when the work it depends on is done: cuhost synchronizes the device before
# calling a replacement, and after a host-to-device one. Counted by the null
# driver (cuhostNullCallCounts): for a kernel's staged host array, the
# replacement that copies it back sees the launch and a synchronization
# after it; the one that copies it in is followed by a synchronization
# before the launch. (On a GPU, `hostapi/driver_copy_overrides.py` checks
# the results of kernels of about a millisecond.)
# stdout: copy override sync ok
import numpy as np
from _null_calls import call_counts as counts
from numba import cuda
from numba.cuda.cudadrv.driver import driver

assert cuda.backend() == "cuda", cuda.backend()

seen = []
old_htod, old_dtoh = driver.cuMemcpyHtoD, driver.cuMemcpyDtoH


def watching(kind, copy):
    def replacement(dst, src, size):
        c = counts()
        seen.append((kind, c.get("cuCtxSynchronize", 0), c.get("cuLaunchKernel", 0)))
        copy(dst, src, size)
    return replacement


@cuda.jit
def twice(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= 2


a = np.random.default_rng(3).standard_normal(100)
twice[1, 128](cuda.to_device(a))  # compiled and loaded before anything is watched
cuda.synchronize()
driver.cuMemcpyHtoD, driver.cuMemcpyDtoH = watching("htod", old_htod), watching("dtoh", old_dtoh)
for _ in range(2):  # the first launch and the staged one after it
    del seen[:]
    host = a.copy()
    twice[1, 128](host)
    (k1, sync_in, launch_in), (k2, sync_out, launch_out) = seen
    assert (k1, k2) == ("htod", "dtoh"), seen
    assert launch_out == launch_in + 1, seen  # copied back after the launch ...
    assert sync_out >= sync_in + 2, seen  # ... with a synchronization after the copy in and one after the launch
driver.cuMemcpyHtoD, driver.cuMemcpyDtoH = old_htod, old_dtoh

# A device array copied back through a replacement: the device is synchronized first.
d = cuda.to_device(a)
twice[1, 128](d)
driver.cuMemcpyDtoH = watching("dtoh", old_dtoh)
before = counts().get("cuCtxSynchronize", 0)
del seen[:]
d.copy_to_host()
driver.cuMemcpyDtoH = old_dtoh
((kind, sync_at, _),) = seen
assert kind == "dtoh" and sync_at == before + 1, (seen, before)
print("copy override sync ok")
