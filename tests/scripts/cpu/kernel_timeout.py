# --kernel-timeout on the CPU backend: a launch that runs past the limit is
# stopped with a KernelError naming the kernel and the limit, whatever the
# kernel's shape (plain loop, barriers split by fission, fibers for warp
# operations, a spin inside a device function, a cooperative grid), within
# a bounded time; the process goes on and later launches give right results.
# backends: cpu
# cuhost-args: --kernel-timeout 0.5
# stdout: kernel timeout ok
import os
import sys
import time

import numpy as np

import _cuhost
from numba import cuda

# The kernels that never end, shared with the GPU's deadline tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cuda"))
from _stuck_kernels import spin, spin_barrier, spin_grid, spin_in_device_function, spin_warp  # noqa: E402

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
