# Several GPUs in one process, on the host side, through the null driver
# with two devices (null_cuda.cpp: per-context functions, streams and
# events, and a launch fails with CUDA_ERROR_INVALID_HANDLE when its function
# or stream belongs to another context, as on a real driver). Kernels do not
# run there; copies are real, so data paths are checked with values.
# env: CUHOST_NULL_DEVICES=2
# stdout: multi-device host paths ok
import threading

import numpy as np
from numba import cuda

assert cuda.backend() == "cuda", cuda.backend()
assert len(cuda.gpus) == 2, len(cuda.gpus)
for g in cuda.gpus:
    assert isinstance(g.name, str), type(g.name)  # str, as numba-cuda gives
assert [g.id for g in cuda.gpus] == [0, 1]
rng = np.random.default_rng(5)


@cuda.jit
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= a


n = 256
host = rng.random(n)

# A kernel compiled once is loaded in each device's context on first use
# there: launches on device 1 after select_device, inside `with gpus[1]` and
# from a thread of its own all work.
d0 = cuda.to_device(host)
scale[1, n](d0, 2.0)
with cuda.gpus[1]:
    assert cuda.get_current_device().id == 1
    d1 = cuda.to_device(host)
    scale[1, n](d1, 2.0)
    scale[1, n](host.copy(), 2.0)  # a host array: copied to device 1 and back
assert cuda.get_current_device().id == 0
cuda.select_device(1)
scale[1, n](d1, 3.0)
assert cuda.get_current_device().id == 1
cuda.select_device(0)
assert len(scale.signatures) == 1, scale.signatures  # compiled once, loaded on both devices

errors = []


def drive(device):
    try:
        with cuda.gpus[device]:
            a = cuda.to_device(host)
            for _ in range(3):
                scale[1, n](a, 1.5)
            np.testing.assert_array_equal(a.copy_to_host(), host)  # the null driver runs no kernel
            assert cuda.get_current_device().id == device
    except BaseException as e:  # reported by the main thread
        errors.append(e)


threads = [threading.Thread(target=drive, args=(i % 2,)) for i in range(6)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors
assert cuda.get_current_device().id == 0  # other threads' choices are their own


def current_in_thread():
    box = []
    t = threading.Thread(target=lambda: box.append(cuda.get_current_device().id))
    t.start()
    t.join()
    return box[0]


with cuda.gpus[1]:
    assert current_in_thread() == 0  # a new thread starts on the default device

# Nested `with` blocks restore the outer device; one Device object can be
# entered from several threads.
with cuda.gpus[1]:
    with cuda.gpus[0]:
        assert cuda.get_current_device().id == 0
    assert cuda.get_current_device().id == 1
assert cuda.get_current_device().id == 0

# A @require_context function keeps the thread's device (numba-cuda's rule).
@cuda.require_context
def switch_inside():
    with cuda.gpus[1]:
        pass


try:
    switch_inside()
    raise AssertionError("a device switch inside @require_context was accepted")
except RuntimeError as e:
    assert str(e) == "Cannot switch CUDA-context.", str(e)
assert cuda.get_current_device().id == 0


@cuda.require_context
def same_device():
    with cuda.gpus[0]:
        return cuda.current_context().device.id


assert same_device() == 0

# Arrays remember their device: reading one back from another device's
# context copies from where it lives.
with cuda.gpus[1]:
    far = cuda.to_device(np.arange(10.0))
np.testing.assert_array_equal(far.copy_to_host(), np.arange(10.0))
np.testing.assert_array_equal(far[2:8:2].copy_to_host(), np.arange(10.0)[2:8:2])

# Peer copies between devices (cuMemcpyPeerAsync; the null driver checks each
# pointer lives on the context named for it).
with cuda.gpus[0]:
    assert cuda.current_context().can_access_peer(1)
    src = cuda.to_device(np.arange(10, dtype=np.float32))
with cuda.gpus[1]:
    dst = cuda.to_device(np.zeros(10, dtype=np.float32))
with cuda.gpus[0]:
    dst.copy_to_device(src)
    np.testing.assert_array_equal(dst.copy_to_host(), np.arange(10, dtype=np.float32))
back = cuda.device_array(10, np.float32)
cuda.to_device(dst, to=back)  # to= with a device array of another device
np.testing.assert_array_equal(back.copy_to_host(), np.arange(10, dtype=np.float32))
host_into_far = np.full(10, 7.0, np.float32)
cuda.to_device(host_into_far, to=dst)  # from device 0's thread state into device 1's array
np.testing.assert_array_equal(dst.copy_to_host(), host_into_far)

# An array of another device is used through peer access (enabled on first need).
scale[1, n](far, 2.0)

# A stream belongs to its device: a launch on another device is refused with
# both devices named; a default stream stands for each device's own.
with cuda.gpus[1]:
    s1 = cuda.stream()
    e1 = cuda.event()
    e1.record()  # on device 1's default stream
    e1.record(s1)
    e1.synchronize()
    scale[1, n, s1](d1, 1.0)
try:
    scale[1, n, s1](d0, 1.0)
    raise AssertionError("a stream of device 1 was used on device 0")
except ValueError as e:
    assert str(e) == ("kernel 'scale' runs on device 0 (the current device), but its stream belongs to device 1; "
                      "launch inside `with cuda.gpus[1]:`, or use a stream of device 0"), str(e)
ds = cuda.default_stream()
with cuda.gpus[1]:
    scale[1, n, ds](d1, 1.0)
    d1.copy_to_host(stream=s1)
    s1.synchronize()
del s1  # destroyed in its own context

# cuda.close() unloads every device's modules; launches load them again, and
# the thread is back on the default device.
cuda.select_device(1)
cuda.close()
assert cuda.get_current_device().id == 0
scale[1, n](d0, 1.0)
with cuda.gpus[1]:
    scale[1, n](d1, 1.0)
cuda.synchronize()

# Memory info and synchronize of a context act on its own device.
with cuda.gpus[1]:
    ctx1 = cuda.current_context()
free, total = ctx1.get_memory_info()
assert 0 < free <= total
ctx1.synchronize()
assert cuda.get_current_device().id == 0

try:
    cuda.select_device(2)
    raise AssertionError("device 2 was accepted")
except cuda.CudaSupportError as e:
    assert "no CUDA device 2 (2 device(s) found)" in str(e), str(e)
print("multi-device host paths ok")
