# Streams and events on the CPU backend: every factory exists, streams are
# in-order and synchronous (a created stream's handle is a unique identity,
# the default stream's 0, the legacy and per-thread ones 1 and 2 as in the
# driver; external ones keep their pointer), events time host work in
# milliseconds.
# backends: cpu
# stdout: streams ok
import time

import numpy as np
from numba import cuda

s = cuda.stream()
s2 = cuda.stream()
assert isinstance(s, cuda.Stream) and s.handle not in (0, 1, 2) and int(s) == s.handle and s2.handle != s.handle
assert s.__cuda_stream__() == (0, s.handle) and not s.external
s.synchronize()
for f, handle, text in ((cuda.default_stream, 0, "<Default CUDA stream"),
                        (cuda.legacy_default_stream, 1, "<Legacy default CUDA stream"),
                        (cuda.per_thread_default_stream, 2, "<Per-thread default CUDA stream")):
    t = f()
    assert isinstance(t, cuda.Stream) and t.handle == handle and repr(t).startswith(text), (f, repr(t))
ext = cuda.external_stream(0x1234)
assert ext.handle == 0x1234 and int(ext) == 0x1234
ext.synchronize()
assert repr(ext) == "<External CUDA stream 0x1234>", repr(ext) and ext.external
try:
    cuda.external_stream("abc")
    raise SystemExit("external_stream accepted a str")
except TypeError as err:
    assert str(err) == "external_stream(ptr): ptr must be an int (a CUstream), not str"

# auto_synchronize is a context manager returning the stream.
with s.auto_synchronize() as inside:
    assert inside is s
    d = cuda.to_device(np.arange(10.0), stream=s)
    h = d.copy_to_host(stream=s)
assert list(h) == list(np.arange(10.0))

# Copies on a stream, then synchronize.
rng = np.random.default_rng(5)
a = rng.standard_normal(1000)
d = cuda.device_array_like(a, stream=s)
assert d.stream is s
d.copy_to_device(a, stream=s)
out = np.empty_like(a)
d.copy_to_host(out, stream=s)
s.synchronize()
assert np.array_equal(out, a)

# Events.
start, end = cuda.event(), cuda.event(timing=True)
start.record()
time.sleep(0.02)
end.record(s)
end.synchronize()
assert start.query() and end.query()
ms = start.elapsed_time(end)
assert 15.0 <= ms < 2000.0, ms
assert cuda.event_elapsed_time(start, end) == ms
assert end.elapsed_time(start) == -ms
end.wait(s)
end.wait()
try:
    cuda.event(timing=False).elapsed_time(end)
    raise SystemExit("elapsed_time without timing accepted")
except cuda.CudaAPIError as err:
    assert "timing=False" in str(err)
try:
    cuda.event().elapsed_time(end)
    raise SystemExit("elapsed_time of an unrecorded event accepted")
except cuda.CudaAPIError as err:
    assert str(err) == "cuEventElapsedTime failed: CUDA_ERROR_INVALID_HANDLE (an event was never recorded)", str(err)
try:
    start.record(stream="x")
    raise SystemExit("record accepted a str stream")
except TypeError as err:
    assert "expected a stream" in str(err)
cuda.synchronize()
print("streams ok")
