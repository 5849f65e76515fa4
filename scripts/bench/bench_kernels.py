# P7/P8: kernel speed on a suite, timed with CUDA events: saxpy, a reduction,
# a 2-D stencil, a tiled matrix product with shared memory, a
# transcendental-heavy kernel and a compute-bound foreign-call kernel. The raw
# CUDA C++ versions (raw/kernels.cu, built with nvcc -O3) print the same rows.
import math
import os

from _harness import bench, np
from numba import cuda, float32

GPU = bench.backend_name() == "cuda"
here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def reduce_sum(x, total):
    buf = cuda.shared.array(256, float32)
    t = cuda.threadIdx.x
    acc = float32(0)
    i = cuda.grid(1)
    while i < x.size:
        acc += x[i]
        i += cuda.gridsize(1)
    buf[t] = acc
    cuda.syncthreads()
    s = 128
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(total, 0, buf[0])


@cuda.jit
def stencil(u, out):
    i, j = cuda.grid(2)
    if 0 < i < u.shape[0] - 1 and 0 < j < u.shape[1] - 1:
        out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]) - u[i, j]


TILE = 16


@cuda.jit
def matmul(A, B, C):
    sA = cuda.shared.array((TILE, TILE), float32)
    sB = cuda.shared.array((TILE, TILE), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = float32(0)
    for k0 in range(0, A.shape[1], TILE):
        sA[ty, tx] = A[y, k0 + tx]
        sB[ty, tx] = B[k0 + ty, x]
        cuda.syncthreads()
        for k in range(TILE):
            acc += sA[ty, k] * sB[k, tx]
        cuda.syncthreads()
    C[y, x] = acc


@cuda.jit
def transcendental(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        for _ in range(16):
            v = math.sin(v) * math.exp(-v * v) + math.log(1.0 + v * v)
        out[i] = v


mul = cuda.declare_device("mul_f32_f32", "float32(float32, float32)",
                          link=os.path.join(here, "..", "examples", "ffi", "functions.cu"))


@cuda.jit
def foreign_calls(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        acc = float32(0)
        for _ in range(64):
            acc += mul(v, v)
            v = v * float32(0.999)
        out[i] = acc


n = (1 << 28) if GPU else (1 << 20)
x = cuda.to_device(rng.random(n, dtype=np.float32))
y = cuda.to_device(rng.random(n, dtype=np.float32))
out = cuda.device_array(n, np.float32)
blocks = (n + 255) // 256
bench.report(bench.measure(lambda: saxpy[blocks, 256](np.float32(2.0), x, y, out), "saxpy", repeats=20,
                           bytes=12 * n))
total = cuda.device_array(1, np.float32)
bench.report(bench.measure(lambda: reduce_sum[1024, 256](x, total), "reduction", repeats=20, bytes=4 * n))
m = 8192 if GPU else 1024
u = cuda.to_device(rng.random((m, m), dtype=np.float32))
so = cuda.device_array((m, m), np.float32)
bench.report(bench.measure(lambda: stencil[(m // 16, m // 16), (16, 16)](u, so), "stencil_2d", repeats=20,
                           bytes=8 * m * m))
k = 4096 if GPU else 256
A = cuda.to_device(rng.random((k, k), dtype=np.float32))
B = cuda.to_device(rng.random((k, k), dtype=np.float32))
C = cuda.device_array((k, k), np.float32)
bench.report(bench.measure(lambda: matmul[(k // TILE, k // TILE), (TILE, TILE)](A, B, C), "matmul_tiled_shared",
                           repeats=10, flops=2 * k ** 3))
t = (1 << 24) if GPU else (1 << 16)
tx = cuda.to_device(rng.random(t, dtype=np.float32))
to = cuda.device_array(t, np.float32)
bench.report(bench.measure(lambda: transcendental[(t + 255) // 256, 256](tx, to), "transcendental", repeats=10,
                           elements=t))
bench.report(bench.measure(lambda: foreign_calls[(t + 255) // 256, 256](tx, to), "foreign_call", repeats=10,
                           elements=t))
