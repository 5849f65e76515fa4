# The CUDA launch path: module loading, device and host arrays, explicit
# streams, dynamic shared memory above 48 KiB, driver errors naming the
# kernel, and the launch overhead (printed, not asserted: PERFORMANCE.md P1
# is measured by the benchmarks).
# backends: cuda
# stdout: gpu launch ok
# sanitizer-expects: CUDA_ERROR_INVALID_VALUE cuFuncSetAttribute
import time

import numpy as np
from numba import cuda


@cuda.jit
def saxpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


rng = np.random.default_rng(1)
n = 1 << 20
x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
a = np.float32(1.75)
d_x, d_y = cuda.to_device(x), cuda.to_device(y)
d_out = cuda.device_array(n, np.float32)
saxpy[(n + 255) // 256, 256](d_out, a, d_x, d_y)
np.testing.assert_allclose(d_out.copy_to_host(), a * x + y, rtol=1e-6, atol=1e-6)  # fma: rounded once

# Host arrays are copied in and back, strided views included.
h = rng.standard_normal((300, 4)).astype(np.float32)
col = h[:, 2]
expected = h.copy()
expected[:, 2] = a * col + col
saxpy[2, 256](col, a, col.copy(), col.copy())
np.testing.assert_allclose(h, expected, rtol=1e-6, atol=1e-6)

# An explicit stream.
s = cuda.stream()
d_out2 = cuda.device_array(n, np.float32)
saxpy[(n + 255) // 256, 256, s](d_out2, a, d_x, d_y)
s.synchronize()
np.testing.assert_allclose(d_out2.copy_to_host(), a * x + y, rtol=1e-6, atol=1e-6)


@cuda.jit
def reverse_block(a):
    buf = cuda.shared.array(0, dtype=np.float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    for k in range(16):
        buf[t * 16 + k] = a[base + t] + k
    cuda.syncthreads()
    a[base + t] = buf[(cuda.blockDim.x - 1 - t) * 16 + 15]


blocks, threads = 4, 1024
v = rng.standard_normal(blocks * threads).astype(np.float32)
d_v = cuda.to_device(v)
reverse_block[blocks, threads, 0, threads * 16 * 4](d_v)  # 64 KiB of dynamic shared memory
got = d_v.copy_to_host()
np.testing.assert_allclose(got, v.reshape(blocks, threads)[:, ::-1].reshape(-1) + 15, rtol=1e-6, atol=1e-6)

# 40 KiB static plus 16 KiB dynamic: over the default 48 KiB in total.
@cuda.jit
def mixed_shared(a):
    st = cuda.shared.array(10240, dtype=np.float32)
    dyn = cuda.shared.array(0, dtype=np.float32)
    t = cuda.threadIdx.x
    for k in range(10):
        st[t * 10 + k] = a[t] * k
    for k in range(4):
        dyn[t * 4 + k] = a[t] + k
    cuda.syncthreads()
    a[t] = st[(1023 - t) * 10 + 9] + dyn[(1023 - t) * 4 + 3]


w = rng.standard_normal(1024).astype(np.float32)
d_w = cuda.to_device(w)
mixed_shared[1, 1024, 0, 1024 * 4 * 4](d_w)
np.testing.assert_allclose(d_w.copy_to_host(), w[::-1] * 9 + w[::-1] + 3, rtol=1e-5, atol=1e-5)

# More dynamic shared memory than the device has: the driver error names the kernel.
try:
    reverse_block[1, 32, 0, 1 << 30](d_v)
    raise AssertionError("1 GiB of shared memory accepted")
except cuda.CudaAPIError as e:
    assert "reverse_block" in str(e), str(e)

# Launch overhead of a 4-argument kernel with device arrays (steady state).
launch = saxpy[1, 32, s]
for _ in range(1000):
    launch(d_out, a, d_x, d_y)
s.synchronize()
reps = 20000
t0 = time.perf_counter()
for _ in range(reps):
    launch(d_out, a, d_x, d_y)
t1 = time.perf_counter()
s.synchronize()
t2 = time.perf_counter()
for _ in range(reps):
    saxpy[1, 32, s](d_out, a, d_x, d_y)
t3 = time.perf_counter()
s.synchronize()
print("launch: %.2f us per call (launcher kept), %.2f us with k[1, 32] each time"
      % ((t1 - t0) / reps * 1e6, (t3 - t2) / reps * 1e6))
# Host NumPy arguments (4 KB arrays): copied in and back around each launch.
hx = rng.standard_normal(1024).astype(np.float32)
hy = rng.standard_normal(1024).astype(np.float32)
hout = np.zeros(1024, np.float32)
for _ in range(100):
    saxpy[4, 256](hout, a, hx, hy)
reps = 2000
t0 = time.perf_counter()
for _ in range(reps):
    saxpy[4, 256](hout, a, hx, hy)
t1 = time.perf_counter()
np.testing.assert_allclose(hout, a * hx + hy, rtol=1e-6, atol=1e-6)
print("host-array launch: %.2f us per call" % ((t1 - t0) / reps * 1e6))
print("gpu launch ok")
