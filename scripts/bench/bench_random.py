# numba.cuda.random (issue 16): initialising xoroshiro128+ states for 2^20
# threads (splitmix64 seeding and 2^64 jumps, on the device), and drawing
# 2^28 uniform float32 numbers from them (2^8 per thread), timed with CUDA
# events. The same script runs under numba-cuda (python3); where CuPy is
# present, cupy.random's uniform float32 gives a row of system "cupy". On the
# CPU backend the sizes are small (a smoke run).
from _harness import bench, np
from numba import cuda
from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

GPU = bench.backend_name() == "cuda"
threads = (1 << 20) if GPU else (1 << 12)
per_thread = 256 if GPU else 16
n = threads * per_thread


@cuda.jit
def fill_uniform(states, out, per_thread):
    t = cuda.grid(1)
    if t < states.size:
        for k in range(per_thread):
            out[k * states.size + t] = xoroshiro128p_uniform_float32(states, t)


states = create_xoroshiro128p_states(threads, seed=1234)
out = cuda.device_array(n, dtype=np.float32)
blocks = (threads + 255) // 256
fill_uniform[blocks, 256](states, out, per_thread)
if bench.kernels_run():
    sample = out[: 1 << 16].copy_to_host()
    assert 0.0 <= sample.min() and sample.max() < 1.0 and abs(sample.mean() - 0.5) < 0.01, sample.mean()

bench.report(bench.measure(lambda: create_xoroshiro128p_states(threads, seed=1234), "random_init_states_2^20",
                           repeats=5, bytes=16 * threads))
bench.report(bench.measure(lambda: fill_uniform[blocks, 256](states, out, per_thread), "random_uniform_f32_2^28",
                           repeats=10, bytes=4 * n))

try:
    import cupy as cp
except ImportError:
    cp = None
if cp is not None and GPU:
    gen = cp.random.default_rng(1234)
    co = cp.empty(n, dtype=cp.float32)
    r = bench.measure(lambda: gen.random(n, dtype=cp.float32, out=co), "random_uniform_f32_2^28", repeats=10,
                      bytes=4 * n)
    r["system"] = "cupy"
    bench.report(r)
