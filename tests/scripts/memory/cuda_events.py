# On a GPU: events time device work; elapsed_time is positive and grows with
# the amount of work.
# backends: cuda
# stdout: cuda events ok
import numpy as np
from numba import cuda

s = cuda.stream()
n = 1 << 24
host = np.ones(n, np.float32)
d = cuda.device_array(n, np.float32)
start, mid, end = cuda.event(), cuda.event(), cuda.event()
start.record(s)
d.copy_to_device(host, stream=s)
mid.record(s)
for _ in range(8):
    d.copy_to_device(host, stream=s)
end.record(s)
end.synchronize()
assert start.query() and end.query()
one = cuda.event_elapsed_time(start, mid)
eight = mid.elapsed_time(end)
assert one > 0 and eight > one, (one, eight)
no_timing = cuda.event(timing=False)
no_timing.record(s)
no_timing.synchronize()
try:
    start.elapsed_time(no_timing)
    raise SystemExit("timing-less event timed")
except cuda.CudaAPIError:
    pass
print("cuda events ok")
