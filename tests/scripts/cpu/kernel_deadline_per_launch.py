# Per-launch kernel deadlines on the CPU backend (cuhost.kernel_deadline, a
# cuhost extension beyond numba-cuda), with no --kernel-timeout: a `while
# True` kernel launched inside `with cuhost.kernel_deadline(0.3)` is stopped
# with a KernelError naming the kernel and the launch's deadline, whatever
# its shape (a plain loop, barriers, warp operations, a cooperative grid);
# the same kernels launched outside the block run their variant without
# cancellation points and give right results on random data; a nested
# deadline tightens; the deadline belongs to the calling thread; invalid
# values are refused.
# backends: cpu
# stdout: per-launch deadline ok
import os
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

import _cuhost
import cuhost
from numba import cuda

# Kernels that never end, shared with kernel_timeout.py and the GPU's deadline tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cuda"))
from _stuck_kernels import spin_barrier, spin_grid, spin_warp  # noqa: E402


@cuda.jit
def spin(out, n):
    i = cuda.grid(1)
    k = 0
    while True:
        k = (k + n) % 1000
        if k < 0:
            break
    out[i] = k


def stopped(kernel, args, limit, scope_text):
    t0 = time.monotonic()
    try:
        kernel[2, 64](*args)
    except _cuhost.KernelError as e:
        message = str(e)
        assert message.startswith("kernel '%s' ran longer than %s" % (kernel.__name__, scope_text)), message
        assert "and was stopped" in message, message
    else:
        raise AssertionError("kernel %s returned" % kernel.__name__)
    elapsed = time.monotonic() - t0
    assert limit <= elapsed < limit + 5, (kernel.__name__, elapsed)
    return elapsed


assert cuhost.current_kernel_deadline() == (0.0, "runtime")
out = np.zeros(256, dtype=np.int64)
for kernel, args in [(spin, (out, 3)), (spin_barrier, (out,)), (spin_warp, (out,)), (spin_grid, (out,))]:
    with cuhost.kernel_deadline(0.3) as d:
        assert d.seconds == 0.3 and cuhost.current_kernel_deadline() == (0.3, "launch")
        stopped(kernel, args, 0.3, "its launch's deadline of 0.3 s (per launch: cuhost.kernel_deadline)")
    assert cuhost.current_kernel_deadline() == (0.0, "runtime")

# A nested deadline tightens; a looser inner one leaves the outer in force.
with cuhost.kernel_deadline(1.0):
    with cuhost.kernel_deadline(0.2):
        assert cuhost.current_kernel_deadline() == (0.2, "launch")
        stopped(spin, (out, 7), 0.2, "its launch's deadline of 0.2 s")
    with cuhost.kernel_deadline(30):
        assert cuhost.current_kernel_deadline() == (1.0, "launch")
    assert cuhost.current_kernel_deadline() == (1.0, "launch")

# The deadline is the calling thread's: another thread sees none meanwhile.
seen = []
with cuhost.kernel_deadline(0.5):
    t = threading.Thread(target=lambda: seen.append(cuhost.current_kernel_deadline()))
    t.start()
    t.join()
assert seen == [(0.0, "runtime")], seen

# The kernels the deadlines stopped run to their end outside a deadline
# block, with right results on random data (a kernel first compiled under a
# deadline, and one first compiled without).
rng = np.random.default_rng(20261129)


@cuda.jit
def scaled_prefix(out, x, a):
    i = cuda.grid(1)
    if i < x.size:
        acc = 0.0
        j = 0
        while j <= i:
            acc += a * x[j]
            j += 1
        out[i] = acc


x = rng.standard_normal(700)
res = np.zeros_like(x)
with cuhost.kernel_deadline(20):
    scaled_prefix[6, 128](res, x, 1.5)
np.testing.assert_allclose(res, np.cumsum(1.5 * x), rtol=1e-9, atol=1e-9)
y = rng.standard_normal(700)
scaled_prefix[6, 128](res, y, -0.5)
np.testing.assert_allclose(res, np.cumsum(-0.5 * y), rtol=1e-9, atol=1e-9)
with cuhost.kernel_deadline(20):
    scaled_prefix[6, 128](res, x, 2.0)
np.testing.assert_allclose(res, np.cumsum(2.0 * x), rtol=1e-9, atol=1e-9)

counts = rng.integers(0, 900, size=256)
hits = np.zeros(256, dtype=np.int64)


@cuda.jit
def count_up(out, n):
    i = cuda.grid(1)
    if i < n.size:
        k = 0
        while k < n[i]:
            cuda.syncthreads()
            k += 1
        out[i] = k * 3 + i


count_up[1, 256](hits, counts)  # never launched under a deadline: no cancellation points, right results
np.testing.assert_array_equal(hits, counts * 3 + np.arange(256))

# Inspection shows the GPU code of the variant a launch from this thread
# would run now: with the flag's reads inside a deadline block, without
# them outside (cuda/deadline_ptx_per_launch.py checks the PTX closer).
for kernel in (scaled_prefix, count_up):
    (ptx,) = kernel.inspect_asm().values()
    assert "cuhost_gpu_cancel_flag" not in ptx and "exit;" not in ptx, ptx
    with cuhost.kernel_deadline(5):
        (ptx,) = kernel.inspect_asm().values()
    assert "cuhost_gpu_cancel_flag" in ptx and "ld.volatile.global.u32" in ptx, ptx

# A graph captured inside a deadline block records the variant with
# cancellation points of a kernel first compiled without them; set_args
# takes it as the kernel's specialization.
from cuhost import graph  # noqa: E402


@cuda.jit
def axpy(out, x, a):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + out[i]


s = cuda.stream()
d_x, d_out = cuda.to_device(x), cuda.to_device(y)
axpy[6, 128, s](d_out, d_x, 0.5)  # the variant without points, first
with cuhost.kernel_deadline(30), graph.capture(s) as g:
    axpy[6, 128, s](d_out, d_x, 2.0)
g.launch()
s.synchronize()
np.testing.assert_allclose(d_out.copy_to_host(), y + 2.5 * x, rtol=1e-12, atol=1e-12)
g.kernels[0].set_args(d_out, cuda.to_device(y), -3.0)
g.launch()
s.synchronize()
np.testing.assert_allclose(d_out.copy_to_host(), y + 2.5 * x - 3.0 * y, rtol=1e-12, atol=1e-12)

# Each variant is compiled once, when a launch first needs it: launches
# alternating in and out of deadline blocks compile nothing more (cuhost -v
# names the layer that served each lookup).
CHILD = """
import numpy as np
from numba import cuda
import cuhost

@cuda.jit
def bump(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] += i

out = np.zeros(64, dtype=np.int64)
for launch in range(6):
    if launch % 2:
        with cuhost.kernel_deadline(30):
            bump[1, 64](out)
    else:
        bump[1, 64](out)
assert (out == 6 * np.arange(64)).all()
print("bump ok")
"""
with tempfile.TemporaryDirectory() as cache:
    env = dict(os.environ, CUHOST_CACHE_DIR=cache)
    env.pop("CUHOST_VERIFY_PTX", None)  # the test suite's: a PTX lookup beside each CPU compile
    p = subprocess.run([sys.executable, "--backend", "cpu", "--verbose", "-c", CHILD], capture_output=True, text=True,
                       timeout=120, env=env)
assert p.returncode == 0 and p.stdout.strip() == "bump ok", (p.stdout, p.stderr)
served = [line for line in p.stderr.splitlines() if "[bump] kernel served by" in line]
assert len(served) == 2, p.stderr

for bad, kind in [(0, ValueError), (-1.5, ValueError), (float("inf"), ValueError), (float("nan"), ValueError),
                  ("1", TypeError), (True, TypeError), (None, TypeError)]:
    try:
        cuhost.kernel_deadline(bad)
    except kind as e:
        assert "kernel_deadline() takes" in str(e), e
    else:
        raise AssertionError(bad)
print("per-launch deadline ok")
