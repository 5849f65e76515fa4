# backends: cpu
# A reduction that forgets a syncthreads gives a (possibly) wrong answer, as
# a GPU would risk, but never hangs or crashes; a kernel whose threads wait
# at barriers that can never all be reached is reported as an error.
import numpy as np
from numba import cuda, float32, int32

TPB = 64


@cuda.jit
def racy_sum(x, out):
    buf = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    buf[t] = x[cuda.grid(1)]
    # missing cuda.syncthreads() here
    s = TPB // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


x = np.random.default_rng(0).random(TPB * 8).astype(np.float32)
out = np.zeros(8, np.float32)
racy_sum[8, TPB](x, out)
assert np.isfinite(out).all()
print("racy result (no hang):", out[:2])


@cuda.jit
def split_barriers(out):
    t = cuda.threadIdx.x
    if t < 16:
        cuda.syncthreads()
        out[t] = 1
    else:
        out[t] = cuda.syncthreads_count(1)


o = np.zeros(32, np.int32)
try:
    split_barriers[1, 32](o)
    print("split barriers completed:", o[:4])
except cuda.KernelError as e:
    assert "split_barriers" in str(e), str(e)
    print("split barriers reported:", str(e).splitlines()[0])
print("missing syncthreads ok")
