# numba-cuda scripts import device functions by name: `from numba.cuda import
# threadIdx, syncthreads, atomic, shared`; those names work inside kernels
# (as globals and as aliases) and raise a clear error on the host.
import numpy as np
from numba import cuda, float32
from numba.cuda import threadIdx, blockIdx, blockDim, syncthreads, atomic, shared, grid, libdevice

TPB = 64


@cuda.jit
def kernel(x, out, total):
    buf = shared.array(TPB, float32)
    t = threadIdx.x
    i = blockIdx.x * blockDim.x + t
    buf[t] = x[i]
    syncthreads()
    out[i] = buf[TPB - 1 - t] + libdevice.sqrtf(buf[t])
    atomic.add(total, 0, 1)
    j = grid(1)
    if j != i:
        out[i] = -1.0


x = np.random.default_rng(0).random(TPB * 4, dtype=np.float32)
out = np.zeros_like(x)
total = np.zeros(1, np.int32)
kernel[4, TPB](x, out, total)
xb = x.reshape(4, TPB)
np.testing.assert_allclose(out, (xb[:, ::-1] + np.sqrt(xb)).reshape(-1), rtol=1e-6)
assert total[0] == x.size
try:
    syncthreads()
except TypeError as e:
    assert "cuda.syncthreads() can only be called inside a kernel" in str(e)
else:
    raise AssertionError("syncthreads ran on the host")
assert cuda.warpsize == 32
print("imported device names ok")
