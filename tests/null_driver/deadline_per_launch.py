# Per-launch deadlines on the CUDA backend's host side, over the null driver
# (nothing runs there, so no deadline passes; cuda/deadline_gpu.py stops
# real kernels on a GPU), with no --kernel-timeout: a kernel launched
# outside `with cuhost.kernel_deadline(...)` loads PTX without cancellation
# points and its launch does not wait for the stream; the first launch
# inside the block compiles and loads the variant with them (its flag global
# bound, the launch waited for), and later launches on either side reuse
# their variant: no compile, no load, and a launch without a deadline still
# never waits. compile_ptx and inspect_asm give the variant a launch would
# run there. Host arrays come back as the kernel's checks leave them (the
# null driver runs no kernel) and no driver call fails.
# backends: cuda
# cuhost-args: --verbose
# stdout: null driver per-launch deadline ok
import sys

import numpy as np

import cuhost
from _null_calls import call_counts, null
from numba import cuda
from numba.cuda import float64

null.cuhostNullClearFailedCalls()
assert cuda.get_current_device().name == "cuhost null driver"

FLAG = "cuhost_gpu_cancel_flag"
LOAD = "ld.volatile.global.u32"


def counts():
    cuda.synchronize()
    return call_counts()


def delta(before, after, name):
    return after.get(name, 0) - before.get(name, 0)


@cuda.jit
def row_sums(out, a):
    i = cuda.grid(1)
    if i < out.size:
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j]
        out[i] = acc


sig = (float64[::1], float64[:, ::1])
plain, _ = cuda.compile_ptx(row_sums, sig)
assert FLAG not in plain and LOAD not in plain and "exit;" not in plain, plain
with cuhost.kernel_deadline(5):
    cancellable, _ = cuda.compile_ptx(row_sums, sig)
assert FLAG in cancellable and LOAD in cancellable and "exit;" in cancellable, cancellable

rng = np.random.default_rng(29)
a = cuda.to_device(rng.standard_normal((500, 40)))
out = cuda.to_device(np.zeros(500))

row_sums[4, 128](out, a)  # compiles and loads the variant without points
c0 = counts()
row_sums[4, 128](out, a)
c1 = counts()
assert delta(c0, c1, "cuLibraryLoadData") == 0 and delta(c0, c1, "cuLibraryGetGlobal") == 0, (c0, c1)
waits_plain = delta(c0, c1, "cuStreamSynchronize")

with cuhost.kernel_deadline(5):
    row_sums[4, 128](out, a)  # the variant with points: compiled, loaded, its flag bound, waited for
c2 = counts()
assert delta(c1, c2, "cuLibraryLoadData") == 1, (c1, c2)
assert delta(c1, c2, "cuLibraryGetGlobal") >= 1, (c1, c2)
assert delta(c1, c2, "cuStreamSynchronize") > waits_plain, (c1, c2)
with cuhost.kernel_deadline(5):
    (ptx,) = row_sums.inspect_asm().values()
    assert FLAG in ptx and LOAD in ptx, ptx
    row_sums[4, 128](out, a)
c3 = counts()
assert delta(c2, c3, "cuLibraryLoadData") == 0, (c2, c3)

row_sums[4, 128](out, a)  # back to the first variant: nothing compiled or loaded, no wait for the deadline
c4 = counts()
assert delta(c3, c4, "cuLibraryLoadData") == 0 and delta(c3, c4, "cuLibraryGetGlobal") == 0, (c3, c4)
assert delta(c3, c4, "cuStreamSynchronize") == waits_plain, (c3, c4)
(ptx,) = row_sums.inspect_asm().values()
assert FLAG not in ptx and LOAD not in ptx, ptx

failed = null.cuhostNullFailedCalls().decode()
assert not failed, failed
sys.stdout.flush()
print("null driver per-launch deadline ok")
