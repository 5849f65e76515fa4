# Helper of test_print.py (run in a child process so the parent can read its
# stdout through a pipe): kernels and a device function printing every kind
# of printable value from several threads, between prints of the script.
# argv: seed, mode ("order": no explicit flushes, CPU backend; "flush":
# flush around the launches, as GPU printf needs).
import ctypes
import sys

import numpy as np
from numba import cuda

seed, mode = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(seed)
n = 6
a = rng.integers(-10**12, 10**12, n).astype(np.int64)
f = (rng.standard_normal(n) * 1000).astype(np.float32)
u = rng.integers(2**63, 2**64 - 1, n, dtype=np.uint64)
d = rng.standard_normal(n) * 1e6


@cuda.jit(device=True)
def show(tag, x, y):
    print("dev", x, y, tag)
    return x


@cuda.jit
def items(a, f, u, d):
    i = cuda.grid(1)
    if i < a.size:
        print("item", i, a[i], f[i], u[i], d[i], a[i] > 0, "100% done")
        show(np.int8(-3), np.uint16(i), d[i])


@cuda.jit
def barrier_prints(out):
    sh = cuda.shared.array(8, np.int32)
    t = cuda.threadIdx.x
    sh[t] = t * t
    print("phase1", t)
    cuda.syncthreads()
    out[t] = sh[7 - t]
    print("phase2", t, sh[7 - t])


@cuda.jit
def many():
    print()
    print(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
          29, 30, 31, 32)


@cuda.jit
def dims():
    print("dims", cuda.threadIdx, cuda.blockIdx, cuda.blockDim, cuda.gridDim)


def flush():
    # The GPU driver writes printf output through C's stdout at
    # synchronization; Python's sys.stdout has its own buffer.
    if mode == "flush":
        sys.stdout.flush()
        ctypes.CDLL(None).fflush(None)


print("before")
flush()
items[2, 4](a, f, u, d)
cuda.synchronize()
flush()
print("middle")
flush()
out = np.zeros(8, np.int32)
barrier_prints[1, 8](out)
cuda.synchronize()
assert list(out) == [(7 - t) ** 2 for t in range(8)], out
flush()
print("between")
flush()
many[1, 1]()
cuda.synchronize()
flush()
print("dims")
flush()
dims[(2, 1), (3, 2)]()
cuda.synchronize()
flush()
print("after")
