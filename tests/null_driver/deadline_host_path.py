# The host side of --kernel-timeout on the CUDA backend, over the null driver
# (nothing runs on a device, so no deadline passes here; cuda/deadline_gpu.py
# stops real kernels on a GPU): a kernel with cancellation points loads (its
# flag global is found and bound to the pinned flag word), launches on the
# default and an explicit stream wait for their stream and return without a
# false timeout, host arrays come back as they went in, a launch captured
# into a graph is not waited for (the capture goes on and the graph
# replays), PTX compiled under the option links into a kernel that has
# cancellation points of its own (the flag global is weak: one definition),
# and no driver call fails along the way.
# backends: cuda
# cuhost-args: --kernel-timeout 5
# stdout: null driver deadline ok
import ctypes
import os
import tempfile
import time

import numpy as np
from numba import cuda
from numba.cuda import float64, int32
from cuhost import graph

null = ctypes.CDLL("libcuda.so.1")
null.cuhostNullFailedCalls.restype = ctypes.c_char_p
null.cuhost_null_graph_launches.restype = ctypes.c_int
null.cuhostNullClearFailedCalls()

assert cuda.get_current_device().name == "cuhost null driver"


@cuda.jit
def row_sums(out, a):
    i = cuda.grid(1)
    if i < out.size:
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j]
        out[i] = acc


ptx, _ = cuda.compile_ptx(row_sums, (float64[::1], float64[:, ::1]))
assert "cuhost_gpu_cancel_flag" in ptx and "ld.volatile.global.u32" in ptx, ptx

rng = np.random.default_rng(17)
a = rng.standard_normal((500, 40))
out = rng.standard_normal(500)
a0, out0 = a.copy(), out.copy()
t0 = time.monotonic()
row_sums[4, 128](out, a)
s = cuda.stream()
row_sums[4, 128, s](out, a)
elapsed = time.monotonic() - t0
assert elapsed < 4, elapsed  # the waits returned at once: no deadline reached
assert np.array_equal(a, a0) and np.array_equal(out, out0)  # nothing ran; the copies round-tripped

d_a = cuda.to_device(a)
d_out = cuda.device_array(500)
with graph.capture(s) as g:
    row_sums[4, 128, s](d_out, d_a)
assert len(g.kernels) == 1
launches = null.cuhost_null_graph_launches()
g.launch()
s.synchronize()
assert null.cuhost_null_graph_launches() == launches + 1



def collatz_steps(n):
    k = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        k += 1
    return k


steps_ptx, _ = cuda.compile_ptx(collatz_steps, (int32,), device=True, abi="c",
                                abi_info={"abi_name": "collatz_steps_c"})
assert ".weak .global .align 8 .u64 cuhost_gpu_cancel_flag" in steps_ptx, steps_ptx
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "collatz.ptx")
    with open(path, "w") as f:
        f.write(steps_ptx)
    steps = cuda.declare_device("collatz_steps_c", "int32(int32)", link=path, abi="c")

    @cuda.jit
    def total_steps(out, n):
        i = cuda.grid(1)
        if i < out.size:
            acc = 0
            for j in range(n):
                acc += steps(i + j + 1)
            out[i] = acc

    d_steps = cuda.device_array(100, np.int32)
    total_steps[1, 128](d_steps, 10)  # links (one definition of the flag global), loads and launches

failed = null.cuhostNullFailedCalls().decode()
assert failed == "", failed
print("null driver deadline ok")
