# --kernel-timeout on the CPU backend: a launch that runs past the limit is
# stopped with a KernelError naming the kernel and the limit, whatever the
# kernel's shape (plain loop, barriers split by fission, fibers for warp
# operations, a spin inside a device function, a cooperative grid), within
# a bounded time; the process goes on and later launches give right results.
# backends: cpu
# cuhost-args: --kernel-timeout 0.5
# stdout: kernel timeout ok
import time

import numpy as np
from numba import cuda

import _cuhost


@cuda.jit
def spin(out, n):
    i = cuda.grid(1)
    k = 0
    while k >= 0:
        k = (k + n) % 1000
    out[i] = k


@cuda.jit
def spin_barrier(out):
    i = cuda.threadIdx.x
    while True:
        cuda.syncthreads()
        out[i] += 1


@cuda.jit
def spin_warp(out):
    i = cuda.threadIdx.x
    v = 0
    while v >= 0:
        v = cuda.shfl_sync(0xffffffff, v, 0) + 0 * i
    out[i] = v


@cuda.jit(device=True)
def forever(n):
    k = n
    while k != -1:
        k = (k * 3 + 1) % 1024
    return k


@cuda.jit
def spin_in_device_function(out):
    out[cuda.grid(1)] = forever(3)


@cuda.jit
def spin_grid(out):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    while out[0] >= 0:
        g.sync()
        if i == 0:
            out[1] += 1


out = np.zeros(256, dtype=np.int64)
for kernel, args in [(spin, (out, 3)), (spin_barrier, (out,)), (spin_warp, (out,)),
                     (spin_in_device_function, (out,)), (spin_grid, (out,))]:
    t0 = time.monotonic()
    try:
        kernel[2, 64](*args)
    except _cuhost.KernelError as e:
        message = str(e)
        assert "kernel '%s'" % kernel.__name__ in message, message
        assert "kernel timeout of 0.5 s (--kernel-timeout)" in message, message
    else:
        raise AssertionError("kernel %s returned" % kernel.__name__)
    elapsed = time.monotonic() - t0
    assert 0.5 <= elapsed < 10, (kernel.__name__, elapsed)


@cuda.jit
def triangle(out):
    i = cuda.grid(1)
    s = 0
    for j in range(i + 1):
        s += j
    out[i] = s


rng = np.random.default_rng(3)
res = np.zeros(256, dtype=np.int64)
triangle[4, 64](res)
n = np.arange(256)
np.testing.assert_array_equal(res, n * (n + 1) // 2)
x = rng.standard_normal(1000)
y = np.zeros_like(x)


@cuda.jit
def double(y, x):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = 2 * x[i]


double[8, 128](y, x)
np.testing.assert_array_equal(y, 2 * x)
print("kernel timeout ok")
