# Work on an array is ordered after earlier writes of it on other streams,
# of this device or another (docs/MULTI_GPU.md), with real kernels: a slow
# kernel writes an array on one stream, and what reads it next -- a copy on
# the array's default stream, a kernel on another stream, a kernel or a copy
# on another device (peer access) -- sees what it wrote, with no
# synchronization in the script. Disjoint halves written on two streams both
# land. On the CPU backend work runs in order and the same checks hold; the
# null-driver twin (tests/null_driver/cross_stream_ordering.py) checks the
# same ordering in CI without a GPU.
# stdout: stream ordering ok
import numpy as np
from numba import cuda

gpu = cuda.backend() == "cuda"
spin = 200000 if gpu else 2  # loop trips per element: a GPU kernel long enough to race


@cuda.jit
def slow_fill(x, value, spin):
    i = cuda.grid(1)
    if i < x.size:
        acc = 0.0
        for k in range(spin):
            acc = acc * 0.5 + 1.0  # converges to 2.0
        x[i] = value + (acc - 2.0) * 0.0 + i


@cuda.jit
def add_into(out, x, b):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] + b


n = 1 << 16
blocks = (n + 255) // 256
expected = 7.0 + np.arange(n)
rng = np.random.default_rng(3)
start = rng.random(n)

# One device: a slow write on stream s, then copy_to_host() on the default stream.
a = cuda.to_device(start)
s = cuda.stream()
slow_fill[blocks, 256, s](a, 7.0, spin)
np.testing.assert_array_equal(a.copy_to_host(), expected)

# A kernel on another stream reads what the slow kernel wrote.
a = cuda.to_device(start)
t = cuda.stream()
out = cuda.device_array(n)
slow_fill[blocks, 256, s](a, 7.0, spin)
add_into[blocks, 256, t](out, a, 1.0)
np.testing.assert_array_equal(out.copy_to_host(), expected + 1.0)

# Disjoint halves on two streams.
a = cuda.to_device(start)
slow_fill[blocks // 2, 256, s](a[: n // 2], 7.0, spin)
slow_fill[blocks // 2, 256, t](a[n // 2 :], 7.0 + n // 2, spin)
np.testing.assert_array_equal(a.copy_to_host(), expected)

if len(cuda.gpus) > 1:
    # An array of device 1 written by a slow kernel on device 0 (peer
    # access), then read by copy_to_host (device 1's stream) and by a
    # kernel on device 1.
    with cuda.gpus[1]:
        far = cuda.to_device(start)
        far_out = cuda.device_array(n)
    if cuda.current_context().can_access_peer(1):
        slow_fill[blocks, 256, s](far, 7.0, spin)
        with cuda.gpus[1]:
            add_into[blocks, 256](far_out, far, 2.0)
        np.testing.assert_array_equal(far.copy_to_host(), expected)
        np.testing.assert_array_equal(far_out.copy_to_host(), expected + 2.0)
    # A slow write on device 1, then a peer copy to device 0 on device 0's stream.
    with cuda.gpus[1]:
        s1 = cuda.stream()
        far = cuda.to_device(start)
        slow_fill[blocks, 256, s1](far, 7.0, spin)
    near = cuda.device_array(n)
    near.copy_to_device(far)
    np.testing.assert_array_equal(near.copy_to_host(), expected)
    print("stream ordering ok (%d devices)" % len(cuda.gpus))
else:
    print("stream ordering ok (1 device)")
