# A device function's reads of an array its caller writes see the caller's
# stores, on the GPU code path too: only a kernel's own read-only parameters
# get !invariant.load (memory that holds one value for the whole kernel).
# Before, a device function's array parameter that the function itself never
# wrote was marked so; once inlined into a loop that writes the array, LLVM
# took every read for the first value (the PTX of `local_loop` stored 80).
# stdout: device function array reads ok
import re

import numpy as np

from numba import cuda, int32


@cuda.jit(device=True, inline=True)
def element(arr, k):
    return arr[k]


@cuda.jit(device=True)
def element_call(arr, k):
    return arr[k]


def local_loop(out):
    a = cuda.local.array(2, int32)
    a[0] = 1
    s = 0
    for i in range(4):
        for j in range(2):
            s += element(a, 0) * 10  # reads 1, 0, 1, 1, 2, 2, 3, 3
            a[0] = i + j
    out[0] = s


def global_loop(x, out):
    s = 0
    for i in range(x.size):
        x[0] = i * 3
        s += element_call(x, 0) + element(x, 0)
    out[0] = s


out = np.zeros(1, np.int32)
cuda.jit(local_loop)[1, 1](out)
assert out[0] == 130, out
# The GPU code path: with the loads marked invariant LLVM folded the sum to 8 * 10.
ptx, _ = cuda.compile_ptx(local_loop, (int32[::1],), cc=(9, 0))
stored = re.findall(r"mov\.[bu]32\s+%r\d+, (\d+);", ptx)
assert stored == ["130"], (stored, ptx)

rng = np.random.default_rng(3)
x = rng.integers(1, 100, 7).astype(np.int32)
cuda.jit(global_loop)[1, 1](x, out)
assert out[0] == 2 * 3 * sum(range(7)), out
assert x[0] == 18, x
print("device function array reads ok")
