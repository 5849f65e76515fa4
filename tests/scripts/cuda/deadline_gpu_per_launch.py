# Per-launch deadlines on the GPU (cuhost.kernel_deadline), with no
# --kernel-timeout: the kernels deadline_gpu.py stops under the runtime's
# timeout (a plain loop, a spin on a flag, a spin in a device function, a
# loop of grid syncs, blocks stuck at a grid sync, a counted loop of 2**62
# iterations) are stopped within ~100 ms of a launch's 0.3 s deadline, the
# KernelError naming the kernel and the launch's deadline; the same kernels
# launched outside a deadline block run their variant without cancellation
# points (no flag global in their code; grid syncs are cudadevrt's again)
# and give right results, before and after the stops; a nested deadline
# tightens. The per-script level on the GPU: `unit: a host gives each
# script its kernel timeout, and launches only tighten it` (backend Auto).
# backends: cuda
# timing: alone
# stdout: gpu per-launch deadline ok
import time

import numpy as np

import _cuhost
from _stuck_kernels import (grid_sum, long_count, spin, spin_grid, spin_in_device_function, stuck_at_grid_sync,
                            wait_for_flag)
import cuhost
from numba import cuda

LIMIT = 0.3


@cuda.jit
def windowed_sum(y, x, width):  # a counted loop that ends: right results in both variants
    i = cuda.grid(1)
    if i < x.size:
        acc = 0.0
        for k in range(width):
            acc += x[(i + k) % x.size]
        y[i] = acc


rng = np.random.default_rng(20261129)
xs = rng.standard_normal(16 * 128)
d_xs = cuda.to_device(xs)
x = rng.standard_normal(50_000)
d_x = cuda.to_device(x)
ref = np.array([x[(i + np.arange(1500)) % x.size].sum() for i in range(0, x.size, 991)])


def right_results():
    sums = cuda.to_device(np.zeros(1))
    grid_sum[16, 128](sums, d_xs, cuda.to_device(np.zeros(16)))
    np.testing.assert_allclose(sums.copy_to_host()[0], 3 * xs.sum(), rtol=1e-12)
    y = cuda.device_array_like(d_x)
    windowed_sum[(x.size + 255) // 256, 256](y, d_x, 1500)
    np.testing.assert_allclose(y.copy_to_host()[::991], ref, rtol=1e-10, atol=1e-9)


right_results()  # the variants without points, first
for k in (grid_sum, windowed_sum):
    (ptx,) = k.inspect_asm().values()
    assert "cuhost_gpu_cancel_flag" not in ptx and "exit;" not in ptx, (k.__name__, ptx)

d_out = cuda.to_device(np.zeros(1024, dtype=np.int64))
d_flag = cuda.to_device(np.zeros(1, dtype=np.int32))
cases = [(spin, (d_out, 3)), (wait_for_flag, (d_out, d_flag)), (spin_in_device_function, (d_out,)),
         (spin_grid, (d_out,)), (stuck_at_grid_sync, (d_out,)), (long_count, (d_out, 2**62))]


def stopped(kernel, args, limit):
    t0 = time.monotonic()
    try:
        kernel[4, 256](*args)
    except _cuhost.KernelError as e:
        message = str(e)
        expect = "kernel '%s' ran longer than its launch's deadline of %s s (per launch: cuhost.kernel_deadline)"
        assert message.startswith(expect % (kernel.__name__, limit)), message
    else:
        raise AssertionError("kernel %s returned" % kernel.__name__)
    return time.monotonic() - t0


for kernel, args in cases:
    with cuhost.kernel_deadline(LIMIT):
        assert stopped(kernel, args, LIMIT) >= LIMIT  # compiles and loads the variant with points too
        elapsed = stopped(kernel, args, LIMIT)
    print("%s stopped after %.3f s" % (kernel.__name__, elapsed))
    assert LIMIT <= elapsed < LIMIT + 0.1, (kernel.__name__, elapsed)

with cuhost.kernel_deadline(5):
    with cuhost.kernel_deadline(0.2):
        elapsed = stopped(spin, (d_out, 7), 0.2)
    assert 0.2 <= elapsed < 0.3, elapsed
    right_results()  # the variants with points, under a deadline they do not reach
right_results()  # and without again: the context is usable
print("gpu per-launch deadline ok")
