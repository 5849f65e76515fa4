# --kernel-timeout on the GPU: a kernel that never ends (a plain loop, a spin
# on a flag nobody sets, a spin inside a device function, a loop of grid
# syncs, blocks waiting at a grid sync for a block that never arrives, a
# counted loop of 2**62 iterations) is
# stopped at the deadline by its cancellation points (a grid sync's wait is
# one under a deadline): the launch
# waits for its stream while the watchdog runs, raises the flag word at
# 0.5 s, every thread executes `exit` at its next check, and the launch
# raises KernelError naming the kernel and the limit, within ~100 ms of the
# deadline (each kernel is stopped twice: the flag is lowered after a stop).
# The context stays usable: later launches give right results.
# backends: cuda
# timing: alone
# cuhost-args: --kernel-timeout 0.5
# stdout: gpu deadline ok
# stdout: gpu grid sync under a deadline ok
import time

import numpy as np
from numba import cuda

import _cuhost
from _stuck_kernels import (grid_sum, long_count, spin, spin_grid, spin_in_device_function, stuck_at_grid_sync,
                            wait_for_flag)

d_out = cuda.to_device(np.zeros(1024, dtype=np.int64))
d_flag = cuda.to_device(np.zeros(1, dtype=np.int32))
cases = [(spin, (d_out, 3)), (wait_for_flag, (d_out, d_flag)), (spin_in_device_function, (d_out,)),
         (spin_grid, (d_out,)), (stuck_at_grid_sync, (d_out,)), (long_count, (d_out, 2**62))]


def stopped(kernel, args):
    """Launches a kernel that never ends; returns the seconds until KernelError."""
    t0 = time.monotonic()
    try:
        kernel[4, 256](*args)
    except _cuhost.KernelError as e:
        message = str(e)
        assert "kernel '%s' ran longer than the kernel timeout of 0.5 s (--kernel-timeout)" % kernel.__name__ \
            in message, message
    else:
        raise AssertionError("kernel %s returned" % kernel.__name__)
    return time.monotonic() - t0


for kernel, args in cases:
    # The first launch also compiles, links and loads the kernel (not part of
    # the limit); the second is timed: the flag was lowered after the first
    # stop, so it is raised again at the new deadline.
    assert stopped(kernel, args) >= 0.5
    elapsed = stopped(kernel, args)
    print("%s stopped after %.3f s" % (kernel.__name__, elapsed))
    assert 0.5 <= elapsed < 0.6, (kernel.__name__, elapsed)


@cuda.jit
def triangle(out):
    i = cuda.grid(1)
    s = 0
    for j in range(i * 37):  # up to ~38000 iterations: the points are passed, the flag is down
        s += j
    out[i] = s


res = cuda.device_array(1024, dtype=np.int64)
triangle[4, 256](res)
n = np.arange(1024) * 37
np.testing.assert_array_equal(res.copy_to_host(), n * (n - 1) // 2)

rng = np.random.default_rng(5)
x = rng.standard_normal(100_000)
y = np.zeros_like(x)


@cuda.jit
def scaled_sum(y, x):
    i = cuda.grid(1)
    if i < x.size:
        acc = 0.0
        for k in range(2000):
            acc += x[(i + k) % x.size]
        y[i] = acc


scaled_sum[(x.size + 255) // 256, 256](y, x)
ref = np.array([x[(i + np.arange(2000)) % x.size].sum() for i in range(0, x.size, 997)])
np.testing.assert_allclose(y[::997], ref, rtol=1e-10, atol=1e-9)
print("gpu deadline ok")


# Under a deadline grid.sync() is cuhost's own barrier: it still synchronizes
# the whole grid (each block's partial sum is read by block 0 after the sync).
xs = rng.standard_normal(64 * 128)
sums = cuda.to_device(np.zeros(1))
grid_sum[64, 128](sums, cuda.to_device(xs), cuda.to_device(np.zeros(64)))
np.testing.assert_allclose(sums.copy_to_host()[0], 3 * xs.sum(), rtol=1e-12)
print("gpu grid sync under a deadline ok")
