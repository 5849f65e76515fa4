# Two devices that cannot access each other's memory (the null driver with
# CUHOST_NULL_PEER=0): a launch with an array of the other device is refused
# with both devices named, before anything runs; copies between the devices
# still work (the driver stages them).
# env: CUHOST_NULL_DEVICES=2
# env: CUHOST_NULL_PEER=0
# stdout: multi-device without peer access ok
import numpy as np
from numba import cuda

assert len(cuda.gpus) == 2


@cuda.jit
def add(x, y):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += y[i]


a = cuda.to_device(np.ones(8))
with cuda.gpus[1]:
    b = cuda.to_device(np.ones(8))
    assert not cuda.current_context().can_access_peer(0)
try:
    add[1, 8](a, b)
    raise AssertionError("an array of device 1 was used on device 0 without peer access")
except ValueError as e:
    assert str(e) == ("kernel 'add': argument 1 is an array on device 1, but the kernel runs on device 0 (the current "
                      "device), and device 0 cannot access the memory of device 1 (no peer access between them); "
                      "copy the array to device 0 first, or launch inside `with cuda.gpus[1]:`"), str(e)
local = cuda.device_array_like(a)
local.copy_to_device(b)  # a peer copy needs no peer access
np.testing.assert_array_equal(local.copy_to_host(), np.ones(8))
add[1, 8](a, local)
print("multi-device without peer access ok")
