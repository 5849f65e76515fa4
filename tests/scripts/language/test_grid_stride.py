# Grid-stride loops (while and range forms) are unrolled 4x with a remainder
# loop in the PTX, and stay exact for every size: smaller than the grid, not
# a multiple of four strides, empty. Loops that only look similar (a break,
# the index assigned in the body, a bound that is not an array extent) keep
# their plain form and their results.
# stdout: grid stride ok
import numpy as np
from numba import cuda, int64


@cuda.jit
def sum_while(x, out):
    acc = int64(0)
    i = cuda.grid(1)
    while i < x.size:
        acc += x[i]
        i += cuda.gridsize(1)
    cuda.atomic.add(out, 0, acc)


@cuda.jit
def sum_range(x, out):
    acc = int64(0)
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        acc += x[i]
    cuda.atomic.add(out, 0, acc)


@cuda.jit
def sum_until_negative(x, out):
    acc = int64(0)
    i = cuda.grid(1)
    while i < len(x):
        if x[i] < -990:
            break
        acc += x[i]
        i += cuda.gridsize(1)
    cuda.atomic.add(out, 0, acc)


@cuda.jit
def sum_skipping(x, out, n):
    acc = int64(0)
    i = cuda.grid(1)
    while i < n:
        acc += x[i]
        if x[i] > 900:
            i += 1
        i += cuda.gridsize(1)
    cuda.atomic.add(out, 0, acc)


def reference_skipping(x, n, threads):
    total = 0
    for t in range(threads):
        i = t
        while i < n:
            total += int(x[i])
            if x[i] > 900:
                i += 1
            i += threads
    return total


rng = np.random.default_rng(31)
for n in (0, 1, 5, 255, 256, 257, 1023, 4099, 100003):
    x = rng.integers(-1000, 1000, n).astype(np.int64)
    for kernel in (sum_while, sum_range):
        out = np.zeros(1, np.int64)
        kernel[3, 64](x, out)
        assert out[0] == x.sum(), (kernel, n, out[0], x.sum())
    out = np.zeros(1, np.int64)
    sum_until_negative[3, 64](x, out)
    expected = 0
    for t in range(192):
        for i in range(t, n, 192):
            if x[i] < -990:
                break
            expected += int(x[i])
    assert out[0] == expected, (n, out[0], expected)
    out = np.zeros(1, np.int64)
    sum_skipping[2, 32](x, out, n)
    assert out[0] == reference_skipping(x, n, 64), n

sig = "void(int64[::1], int64[::1])"
for kernel in (sum_while, sum_range):
    ptx, _ = cuda.compile_ptx(kernel.py_func, sig)
    loads = ptx.count("ld.global.nc.u64")
    assert loads >= 5, (kernel.py_func.__name__, loads)  # four in the unrolled body, one in the remainder loop
ptx, _ = cuda.compile_ptx(sum_until_negative.py_func, sig)
assert ptx.count("ld.global.nc.u64") == 1, ptx.count("ld.global.nc.u64")
print("grid stride ok")
