"""cuBLAS's fp16 GEMM with fp32 accumulation through PyTorch (or CuPy), for
bench_wmma_gemm.py when cuhost's own Python has neither: run it under the
machine's python3 in the same call.

    python3 scripts/bench/cublas_gemm.py [size]
"""
import sys
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
reps = 50
try:
    import torch

    a = torch.randn(n, n, dtype=torch.float16, device="cuda")
    b = torch.randn(n, n, dtype=torch.float16, device="cuda")
    a @ b
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        a @ b
    torch.cuda.synchronize()
    lib = "PyTorch %s" % torch.__version__
except ImportError:
    import cupy as cp

    a = cp.random.standard_normal((n, n)).astype(cp.float16)
    b = cp.random.standard_normal((n, n)).astype(cp.float16)
    a @ b
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        a @ b
    cp.cuda.Device().synchronize()
    lib = "CuPy %s" % cp.__version__
seconds = (time.perf_counter() - t0) / reps
print("cuBLAS (%s) fp16 GEMM %d^3: %.1f TFLOP/s" % (lib, n, 2.0 * n**3 / seconds / 1e12))
