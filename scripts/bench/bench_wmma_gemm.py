"""fp16 GEMM with fp32 accumulation at 4096^3, one command on a GPU machine:

    build/bin/cuhost --backend cuda run scripts/bench/bench_wmma_gemm.py [size]

times every variant of scripts/examples/mma_gemm.py (cuda.mma: mma.sync on
register fragments, ldmatrix, cp.async pipelines; tile and stage variants,
and the pipelined ones: register fragments double-buffered, grouped launch
order, carried stage offsets, 64-bit stores; docs/HOPPER.md),
scripts/examples/wmma_gemm.py's tensor-core kernel (cuda.wmma), the same
tiling without tensor cores (fp32 FMAs), and cuBLAS through PyTorch (or CuPy
when PyTorch is missing), in one process on one device, and prints TFLOP/s
for each and the ratios the issue asks about (best / cuBLAS, best / SIMT).
Each tensor-core result is checked against the exact product (64 rows)
first. Under the machine's python3, scripts/bench/cublas_gemm.py measures
cuBLAS when cuhost's Python has neither library.
"""
import os
import sys
import time

import numpy as np

from numba import cuda

if not hasattr(cuda, "wmma"):  # numba-cuda has no tensor-core API: nothing to compare there
    print("bench_wmma_gemm needs cuhost's cuda.wmma")
    sys.exit(0)
if cuda.backend() != "cuda":
    print("bench_wmma_gemm needs the CUDA backend (--backend cuda on a GPU machine)")
    sys.exit(0)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import mma_gemm  # noqa: E402
import wmma_gemm  # noqa: E402


n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
flops = 2.0 * n * n * n
rng = np.random.default_rng(0)
A = rng.standard_normal((n, n)).astype(np.float16)
B = rng.standard_normal((n, n)).astype(np.float16)
dA, dB = cuda.to_device(A), cuda.to_device(B)
dC = cuda.device_array((n, n), np.float32)
zeros = np.zeros((n, n), np.float32)


def time_launches(run, reps):
    run()  # compile and warm up
    cuda.synchronize()
    start, end = cuda.event(), cuda.event()
    start.record()
    for _ in range(reps):
        run()
    end.record()
    end.synchronize()
    return cuda.event_elapsed_time(start, end) / 1e3 / reps


def time_cuhost(kernel, reps):
    return time_launches(lambda: wmma_gemm.launch(kernel, dA, dB, dC), reps)


def check_rows(what):
    """The first 64 rows against the exact product, with the bound of a float32
    sum of n exact fp16 products in any order (docs/HOPPER.md)."""
    got = dC.copy_to_host()
    err = np.abs(got[rows] - exact)
    assert (err <= bound).all(), "%s is off: max error %g" % (what, err.max())


def cublas():
    """(seconds per GEMM, the product as float32 NumPy, library name)."""
    try:
        import torch

        a = torch.from_numpy(A).cuda()
        b = torch.from_numpy(B).cuda()
        c = a @ b
        torch.cuda.synchronize()
        reps = 50
        t0 = time.perf_counter()
        for _ in range(reps):
            c = a @ b
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) / reps, c.float().cpu().numpy(), "PyTorch %s" % torch.__version__
    except ImportError:
        try:
            import cupy as cp
        except ImportError:  # neither in cuhost's Python: cublas_gemm.py measures it under python3
            return None, None, None

        a, b = cp.asarray(A), cp.asarray(B)
        c = a @ b
        cp.cuda.Device().synchronize()
        reps = 50
        t0 = time.perf_counter()
        for _ in range(reps):
            c = a @ b
        cp.cuda.Device().synchronize()
        return (time.perf_counter() - t0) / reps, cp.asnumpy(c).astype(np.float32), "CuPy %s" % cp.__version__


rows = slice(0, 64)
exact = A[rows].astype(np.float64) @ B.astype(np.float64)
bound = n * 2.0**-23 * (np.abs(A[rows]).astype(np.float64) @ np.abs(B).astype(np.float64))
t_cublas, ref, lib = cublas()
t_mma = {}
for name in mma_gemm.VARIANTS:
    dC.copy_to_device(zeros)
    try:
        t_mma[name] = time_launches(lambda name=name: mma_gemm.launch(name, dA, dB, dC), 20)
    except Exception as e:  # noqa: BLE001 - one variant failing (resources) must not hide the others
        print("  cuhost mma %s: failed: %s: %s" % (name, type(e).__name__, e))
        continue
    check_rows("mma " + name)
dC.copy_to_device(zeros)
t_wmma = time_cuhost(wmma_gemm.gemm_wmma, 20)
check_rows("wmma")
if ref is not None:
    assert np.abs(ref[rows] - exact).max() < 0.1 * np.abs(exact).max(), "cuBLAS's product looks wrong"
t_simt = time_cuhost(wmma_gemm.gemm_simt, 3)

tf = lambda t: flops / t / 1e12  # noqa: E731
print("fp16 GEMM %d^3, fp32 accumulation" % n)
if t_cublas is None:
    print("  cuBLAS: neither PyTorch nor CuPy in cuhost's Python (python3 scripts/bench/cublas_gemm.py %d)" % n)
else:
    print("  cuBLAS (%s): %8.1f TFLOP/s" % (lib, tf(t_cublas)))
for name, t in t_mma.items():
    print("  cuhost mma %-34s %8.1f TFLOP/s" % (name + ":", tf(t)))
print("  cuhost wmma:   %8.1f TFLOP/s" % tf(t_wmma))
print("  cuhost SIMT:   %8.1f TFLOP/s" % tf(t_simt))
if t_mma:
    best = min(t_mma, key=t_mma.get)
    print("  best mma variant: %s, %.1f TFLOP/s, %.1fx the SIMT kernel, %.1fx wmma"
          % (best, tf(t_mma[best]), t_simt / t_mma[best], t_wmma / t_mma[best]))
    if t_cublas is not None:
        print("  best mma variant is %.1f%% of cuBLAS" % (100 * t_cublas / t_mma[best]))
