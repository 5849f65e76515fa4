# Foreign code that traps (__trap()) or fails an assert() on the CPU
# backend: the launch fails with a KernelError naming the kernel (and the
# assertion with its file and line), the process is not aborted, and later
# launches, of the same kernels too, give right results. Barrier kernels
# (fibers) and barrier-free ones (block loops) are both covered. On a GPU
# these are faults that end the CUDA context, so this runs on the CPU only.
# backends: cpu
# stdout: foreign faults ok
import os

import numpy as np
from numba import cuda

import _cuhost

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "faults.cu")
trap_above = cuda.declare_device("trap_above", "int32(int32, int32)", link=[CU])
checked_double = cuda.declare_device("checked_double", "int32(int32)", link=[CU])


@cuda.jit(link=[CU])
def plus_one(out, limit):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = trap_above(i, limit)


@cuda.jit(link=[CU])
def doubled_after_barrier(out):
    i = cuda.grid(1)
    cuda.syncthreads()
    if i < out.size:
        out[i] = checked_double(i)


def expect_kernel_error(kernel, args, *fragments):
    try:
        kernel[2, 32](*args)
    except _cuhost.KernelError as e:
        for f in fragments:
            assert f in str(e), (f, str(e))
    else:
        raise AssertionError("%s did not fail" % kernel.__name__)


out = np.zeros(64, dtype=np.int32)
expect_kernel_error(plus_one, (out, 50), "kernel 'plus_one' trapped: foreign code called __trap()")
expect_kernel_error(doubled_after_barrier, (out,), "kernel 'doubled_after_barrier' failed an assertion",
                    "faults.cu:12", "x < 40 && \"x must stay below 40\"")

# Nothing is lost: the same kernels, within their limits, and others work.
n = np.arange(64, dtype=np.int32)
plus_one[2, 32](out, 100)
np.testing.assert_array_equal(out, n + 1)
small = np.zeros(40, dtype=np.int32)
doubled_after_barrier[2, 32](small)
np.testing.assert_array_equal(small, 2 * np.arange(40))
rng = np.random.default_rng(8)
x = rng.standard_normal(300)
y = np.zeros_like(x)


@cuda.jit
def negate(y, x):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = -x[i]


negate[3, 128](y, x)
np.testing.assert_array_equal(y, -x)
print("foreign faults ok")
