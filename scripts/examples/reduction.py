# A two-level sum: each block reduces its slice in shared memory, then warp
# shuffles finish the last 32 values; partial sums are combined with an
# atomic add. Checked against NumPy.
# stdout: reduction ok
import numpy as np
from numba import cuda, float32

TPB = 256


@cuda.jit
def block_sum(x, total):
    buf = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    acc = float32(0)
    while i < x.size:  # grid-stride loop
        acc += x[i]
        i += cuda.gridsize(1)
    buf[t] = acc
    cuda.syncthreads()
    s = TPB // 2
    while s >= 32:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t < 32:
        v = buf[t]
        off = 16
        while off > 0:
            v += cuda.shfl_down_sync(0xFFFFFFFF, v, off)
            off //= 2
        if t == 0:
            cuda.atomic.add(total, 0, v)


x = np.random.default_rng(1).random(1 << 22, dtype=np.float32)
total = cuda.to_device(np.zeros(1, np.float32))
block_sum[64, TPB](cuda.to_device(x), total)
got = total.copy_to_host()[0]
ref = x.astype(np.float64).sum()
assert abs(got - ref) / ref < 1e-5, (got, ref)
print("sum of %d floats = %.3f (NumPy %.3f) | reduction ok" % (x.size, got, ref))
