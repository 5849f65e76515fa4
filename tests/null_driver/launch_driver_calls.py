# The driver calls of the hot launch paths, counted by the null driver
# (cuhostNullCallCounts): a launch of a compiled kernel on device arrays is
# one cuLaunchKernel and nothing else, on the default stream and on the one
# stream object that made and used them; a repeated cuda.reduce(x, res=res)
# is one launch too. Work
# on an array moving to another stream waits for its last writer once
# (cuEventRecord on the writer's stream, cuStreamWaitEvent on the new one),
# and rewriting it on the stream that wrote it last waits for nothing, both
# ways round: the lock-free check of runtime/access_order.cpp must not skip
# a wait that is needed.
# stdout: launch driver calls ok
import numpy as np
from _null_calls import call_counts as counts
from _null_calls import clear_call_counts as clear
from numba import cuda

assert cuda.backend() == "cuda", cuda.backend()

@cuda.jit
def k4(s, x, y, o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = s * x[i] + y[i]


rng = np.random.default_rng(5)
n = 1024
x = cuda.to_device(rng.random(n, dtype=np.float32))
y = cuda.to_device(rng.random(n, dtype=np.float32))
o = cuda.device_array(n, np.float32)
a = np.float32(rng.random())
k4[4, 256](a, x, y, o)
cuda.synchronize()

clear()
for _ in range(1000):
    k4[4, 256](a, x, y, o)
assert counts() == {"cuLaunchKernel": 1000}, counts()

# Arrays made and used on one stream object: launches there are one call each.
s1, s2 = cuda.stream(), cuda.stream()
x1 = cuda.to_device(rng.random(n, dtype=np.float32), stream=s1)
y1 = cuda.to_device(rng.random(n, dtype=np.float32), stream=s1)
o1 = cuda.device_array(n, np.float32, stream=s1)
k4[4, 256, s1](a, x1, y1, o1)
s1.synchronize()
clear()
for _ in range(100):
    k4[4, 256, s1](a, x1, y1, o1)
assert counts() == {"cuLaunchKernel": 100}, counts()

# They were last written on s1 (a launch may write every array it gets): the
# first launch on s2 waits for s1's write of each of the three, through an
# event recorded on s1.
clear()
k4[4, 256, s2](a, x1, y1, o1)
c = counts()
assert c.get("cuLaunchKernel") == 1 and c.get("cuStreamWaitEvent") == 3 and c.get("cuEventRecord", 0) >= 3, c
# Used by two streams now, each write records its event (a later reader
# waits for that write only), but rewriting on s2 waits for nothing.
clear()
for _ in range(10):
    k4[4, 256, s2](a, x1, y1, o1)
c = counts()
assert c.get("cuLaunchKernel") == 10 and "cuStreamWaitEvent" not in c, c
# Back on s1: the arrays were last written on s2, so s1 waits again.
clear()
k4[4, 256, s1](a, x1, y1, o1)
c = counts()
assert c.get("cuLaunchKernel") == 1 and c.get("cuStreamWaitEvent") == 3, c
s1.synchronize()
s2.synchronize()

sum_reduce = cuda.reduce(lambda p, q: p + q)
res = cuda.device_array(1, np.float32)
sum_reduce(x, res=res)
clear()
for _ in range(100):
    sum_reduce(x, res=res)
assert counts() == {"cuLaunchKernel": 100}, counts()
print("launch driver calls ok")
