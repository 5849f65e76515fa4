# backends: cuda
# cuhost-args: --streams 2
# The host owns the streams: `cuhost run --streams 2` lends s0 and s1; a
# kernel launched on one of them runs there, and launches without a stream go
# to the host's default stream, never to the legacy null stream.
import numpy as np
from numba import cuda


@cuda.jit
def fill(out, v):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = v + i


s0 = cuda.host_stream("s0")
s1 = cuda.host_stream("s1")
assert s0.handle != 0 and s1.handle != 0 and s0.handle != s1.handle
a = cuda.device_array(1 << 20, np.float32)
b = cuda.device_array(1 << 20, np.float32)
fill[(a.size + 255) // 256, 256, s0](a, np.float32(1.0))
fill[(b.size + 255) // 256, 256, s1](b, np.float32(2.0))
s0.synchronize()
s1.synchronize()
np.testing.assert_array_equal(a.copy_to_host(), 1.0 + np.arange(a.size, dtype=np.float32))
np.testing.assert_array_equal(b.copy_to_host(), 2.0 + np.arange(b.size, dtype=np.float32))
default = cuda.default_stream()
assert default.handle not in (0, 1, 2), default.handle  # not the legacy/per-thread null streams
print("host streams ok")
