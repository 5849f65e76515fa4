# P9 peer: the same saxpy and per-block reduction written for numba's
# parallel CPU compiler (@njit(parallel=True)); runs only under python3 with
# numba installed (scripts/bench/run_cpu_comparison.sh makes a throwaway venv).
import os

from _harness import bench, np
from numba import njit, prange

N = int(os.environ.get("BENCH_CPU_N", str(1 << 22)))
TPB = 256


@njit(parallel=True, fastmath=False)
def saxpy(a, x, y, out):
    for i in prange(out.size):
        out[i] = a * x[i] + y[i]


@njit(parallel=True)
def block_sum(x, partial):
    for b in prange(partial.size):
        s = np.float32(0)
        for t in range(TPB):
            i = b * TPB + t
            if i < x.size:
                s += x[i]
        partial[b] = s


rng = np.random.default_rng(0)
x = rng.random(N, dtype=np.float32)
y = rng.random(N, dtype=np.float32)
out = np.empty(N, np.float32)
partial = np.empty((N + TPB - 1) // TPB, np.float32)


def timed(name, fn, nbytes):
    import time
    fn()
    samples = []
    for _ in range(10):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    r = bench._summarize(name, samples, bytes=nbytes, elements=N)
    r["system"], r["backend"] = "numba-njit", "parallel"
    bench.report(r)


timed("cpu_saxpy", lambda: saxpy(np.float32(2.0), x, y, out), 12 * N)
timed("cpu_shared_reduction", lambda: block_sum(x, partial), 4 * N)
