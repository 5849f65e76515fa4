# P9: the CPU backend on saxpy and a shared-memory reduction at 2^22 elements.
# Runs unchanged under `cuhost --backend cpu run` and under python3 with
# numba-cuda's simulator (NUMBA_ENABLE_CUDASIM=1); the simulator is pure
# Python, so it runs a smaller problem and is compared per element.
import os

from _harness import bench, np
from numba import cuda, float32

SIM = bench.backend_name() == "sim"
N = int(os.environ.get("BENCH_CPU_N", str(1 << 12 if SIM else 1 << 22)))
TPB = 256


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def block_sum(x, partial):
    buf = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = buf[0]


rng = np.random.default_rng(0)
x = cuda.to_device(rng.random(N, dtype=np.float32))
y = cuda.to_device(rng.random(N, dtype=np.float32))
out = cuda.device_array(N, np.float32)
blocks = (N + TPB - 1) // TPB
partial = cuda.device_array(blocks, np.float32)
reps = 2 if SIM else 10

r = bench.measure(lambda: saxpy[blocks, TPB](np.float32(2.0), x, y, out), "cpu_saxpy",
                  warmup=1, repeats=reps, bytes=12 * N, elements=N)
bench.report(r)
np.testing.assert_allclose(out.copy_to_host(), 2.0 * x.copy_to_host() + y.copy_to_host(), rtol=1e-6)
r = bench.measure(lambda: block_sum[blocks, TPB](x, partial), "cpu_shared_reduction",
                  warmup=1, repeats=reps, bytes=4 * N, elements=N)
bench.report(r)
ref = x.copy_to_host().reshape(-1, TPB).astype(np.float64).sum(axis=1)
np.testing.assert_allclose(partial.copy_to_host(), ref, rtol=1e-4)
