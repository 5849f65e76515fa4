# --kernel-timeout on the GPU: kernels are compiled with cancellation points
# (engine/codegen/nvptx_cancellation.cpp). Each loop that may run 1024
# iterations or more reads the flag word once every 1024 iterations (a
# volatile load through the address in cuhost_gpu_cancel_flag): a counted
# loop at the end of each chunk of 1024 iterations (deadline_chunks.py), any
# other loop when its countdown from 1024 reaches zero; a raised
# flag ends the thread with PTX `exit`, from device functions too, and from
# cuhost's own compare-and-swap loops (a float atomic max). Loops with
# a small known trip count get none. The kernels still compute the right
# results. deadline_ptx_off.py checks the PTX without the option.
# cuhost-args: --kernel-timeout 0.5
# stdout: deadline ptx ok
import re

from _deadline_kernels import FLAG_LOAD, FLAG_SYMBOL, check_results, ptx_texts

texts = ptx_texts()

nest = texts["row_sums"]
assert nest.count(FLAG_LOAD) == 2, nest
assert nest.count("exit;") >= 1, nest
assert f".global .align 8 .u64 {FLAG_SYMBOL}" in nest, nest
# Two counted loops: chunks, no countdown.
assert not re.search(r"mov\.b32\s+%r\d+, 1024;", nest), nest

spin = texts["wait_for"]
assert spin.count(FLAG_LOAD) == 1 and "exit;" in spin, spin
assert f"{FLAG_SYMBOL}" in spin, spin
# A loop whose end is not counted: the countdown starts at 1024, one
# subtract per iteration.
assert re.search(r"mov\.b32\s+%r\d+, 1024;", spin), spin
assert re.search(r"add\.s32\s+(%r\d+), \1, -1;", spin), spin

cas = texts["peak"]
assert "atom.global.cas.b64" in cas and cas.count(FLAG_LOAD) == 1, cas

taps = texts["fixed_taps"]
assert FLAG_LOAD not in taps and FLAG_SYMBOL not in taps and "exit;" not in taps, taps

# libdevice's own loops (the argument reduction sin() calls for large
# arguments) get no point: bounded by the format, and a point there would keep
# the helper from being inlined into the loop that calls it.
import math  # noqa: E402

from numba import cuda  # noqa: E402
from numba.cuda import float32, int64  # noqa: E402


@cuda.jit
def sines(out, x, steps):
    i = cuda.grid(1)
    if i < x.size:
        acc = 0.0
        for k in range(steps):
            acc += math.sin(x[i] + k * 1e-3)
        out[i] = acc


trig, _ = cuda.compile_ptx(sines, (float32[::1], float32[::1], int64))
helper = trig[trig.index(".func (.param .align 16 .b8 func_retval0[16]) __internal_trig_reduction_slowpathd("):]
assert "cuhost_gpu_cancel_flag" not in helper and "exit;" not in helper, helper
# The kernel's loop is short by its static count of work for up to a few
# thousand iterations (nvptx_short_loops.cpp): it is versioned, and the copy
# taken for such runs reads the flag once before it and never inside it.
# Two copies of the loop, each with its call of the slow path; two flag
# reads, one before the short copy and one in the chunked copy.
assert trig.count(FLAG_LOAD) == 2, trig
kernel_body = trig[: trig.index(".func (.param .align 16 .b8 func_retval0[16]) __internal_trig_reduction_slowpathd(")]
kernel_body = kernel_body[kernel_body.index(".entry") :]
assert len(re.findall(r"call\.uni[^;]*\n?[^;]*__internal_trig_reduction_slowpathd", kernel_body)) == 2, kernel_body

check_results()
print("deadline ptx ok")
