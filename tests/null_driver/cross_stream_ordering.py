# Work on an array is ordered after earlier writes of it queued on other
# streams, of this device or another: the null-driver twin of
# tests/scripts/multigpu/gpu_multi_device.py's peer-access case, where a
# kernel on device 0 wrote an array of device 1 and copy_to_host() (on
# device 1's stream) read the old values. The null driver defers each
# stream's work until something orders it (null_streams.h), so a read that
# is not ordered after the write sees stale bytes here as on a GPU. Kernels
# do not run on the null driver: writes are asynchronous copies, and a
# launch shows its ordering by the writes it must wait for.
# env: CUHOST_NULL_DEVICES=2
# stdout: cross-stream ordering ok
import numpy as np
from numba import cuda
from numba.cuda.cudadrv import driver

assert cuda.backend() == "cuda", cuda.backend()
assert len(cuda.gpus) == 2, len(cuda.gpus)
rng = np.random.default_rng(11)
n = 4096
old = rng.random(n)
new = rng.random(n)
assert not np.array_equal(old, new)
# Copies from pageable memory complete before they return; from page-locked
# memory they run with their stream, which is what needs ordering.
src = cuda.pinned_array(n)
src[:] = new


@cuda.jit
def touch(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i]


def fresh(device):
    with cuda.gpus[device]:
        return cuda.to_device(old)


# 1. One device, two streams: a copy on a stream of its own, then
#    copy_to_host() on the array's default stream.
a = fresh(0)
s = cuda.stream()
a.copy_to_device(src, stream=s)
np.testing.assert_array_equal(a.copy_to_host(), new)

# 2. A peer copy queued on device 0's stream into an array of device 1,
#    then copy_to_host(), which runs on device 1's default stream.
far = fresh(1)
near = cuda.to_device(new)
s0 = cuda.stream()
far.copy_to_device(near, stream=s0)
np.testing.assert_array_equal(far.copy_to_host(), new)

# 3. The failing case's shape: an array of device 1 written on a stream of
#    device 1, then used by a kernel on device 0 (peer access), then read
#    back on device 1: the launch waits for the write, the read for the launch.
far = fresh(1)
with cuda.gpus[1]:
    s1 = cuda.stream()
    far.copy_to_device(src, stream=s1)
touch[(n + 255) // 256, 256](far)
seen = np.empty(n)
driver.device_to_host(seen, far, far.nbytes)  # untracked: sees what the launch waited for
np.testing.assert_array_equal(seen, new)
np.testing.assert_array_equal(far.copy_to_host(), new)

# 4. The launch alone: a write on another stream, then a launch on the
#    default stream; a driver-level copy (which cuhost does not order) on
#    that stream then sees what the launch waited for.
b = fresh(0)
b.copy_to_device(src, stream=s)
touch[(n + 255) // 256, 256](b)
out = np.empty(n)
driver.device_to_host(out, b, b.nbytes)
np.testing.assert_array_equal(out, new)

# 5. Device-to-device on one device across streams, and a read of a view.
c = fresh(0)
d = cuda.to_device(new)
c.copy_to_device(d, stream=s)
np.testing.assert_array_equal(c[n // 2 :].copy_to_host(), new[n // 2 :])

# 6. Writes of disjoint halves on two streams; each half reads back right.
e = fresh(0)
t = cuda.stream()
e[: n // 2].copy_to_device(src[: n // 2], stream=s)
e[n // 2 :].copy_to_device(src[n // 2 :], stream=t)
np.testing.assert_array_equal(e.copy_to_host(), new)

# 7. An explicit stream still orders after another stream's write.
f = fresh(0)
f.copy_to_device(src, stream=s)
g = cuda.pinned_array(n)
f.copy_to_host(g, stream=t)
t.synchronize()
np.testing.assert_array_equal(g, new)
# 8. A write on another stream does not overtake an asynchronous read.
h = fresh(0)
back = cuda.pinned_array(n)
h.copy_to_host(back, stream=s)
h.copy_to_device(src, stream=t)
t.synchronize()
s.synchronize()
np.testing.assert_array_equal(back, old)
np.testing.assert_array_equal(h.copy_to_host(), new)
print("cross-stream ordering ok")
