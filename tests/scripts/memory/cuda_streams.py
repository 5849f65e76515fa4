# On a GPU: streams are real and distinct, copies on a stream are ordered,
# external_stream wraps a stream made elsewhere, host streams are lent, and
# the default stream is never the legacy null stream.
# backends: cuda
# cuhost-args: --streams 2
# stdout: cuda streams ok
import numpy as np
from numba import cuda

s1, s2 = cuda.stream(), cuda.stream()
assert s1.handle not in (0, 1, 2) and s2.handle not in (0, 1, 2) and s1.handle != s2.handle
assert cuda.legacy_default_stream().handle == 1 and cuda.per_thread_default_stream().handle == 2
default = cuda.default_stream()
assert default.handle == cuda.host_stream("s0").handle != 0
rng = np.random.default_rng(3)
host = cuda.pinned_array(1 << 22, np.float64)
host[:] = rng.standard_normal(host.shape)
out = cuda.pinned_array_like(host)
d = cuda.device_array_like(host, stream=s1)
for _ in range(3):
    d.copy_to_device(host, stream=s1)
    d.copy_to_host(out, stream=s1)
s1.synchronize()
assert np.array_equal(out, host)
# Async copies on s1 and s2 with an event ordering s2 after s1.
ev = cuda.event()
d.copy_to_device(host * 2, stream=s1)
ev.record(s1)
ev.wait(s2)
d.copy_to_host(out, stream=s2)
s2.synchronize()
assert np.array_equal(out, host * 2)
ext = cuda.external_stream(s2.handle)
assert ext.handle == s2.handle
with ext.auto_synchronize():
    d.copy_to_host(out, stream=ext)
assert np.array_equal(out, host * 2)
cuda.synchronize()
print("cuda streams ok")
