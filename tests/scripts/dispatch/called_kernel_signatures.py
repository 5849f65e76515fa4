# A @cuda.jit function another kernel calls is compiled as a device function
# for that call (numba's rule): the call's argument types appear in its
# signatures and overloads, and that overload's code is the device function's
# (status-returning ABI), while its own launches stay kernels.
# stdout: called kernel signatures ok
import numpy as np
from numba import cuda
from numba.cuda import types

src = cuda.CUSource('extern "C" __device__ int times3(int a) { return a * 3; }')
times3 = cuda.declare_device("times3", "int32(int32)", link=src, abi="c")


@cuda.jit
def helper(x):
    return times3(x) + 1


@cuda.jit
def kernel(r, x):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = helper(x[i])


x = np.arange(40, dtype=np.int32)
r = np.zeros_like(x)
kernel[2, 32](r, x)
np.testing.assert_array_equal(r, 3 * x + 1)
assert helper.signatures == [(types.int32,)], helper.signatures
ir = helper.overloads[helper.signatures[0]].library.get_llvm_str()
assert "ret i32 0" in ir, ir
assert list(kernel.overloads) == kernel.signatures

# The same function launched as a kernel: a kernel signature of its own.


@cuda.jit
def fill(a, v):
    a[cuda.grid(1)] = v


@cuda.jit
def calls_fill(a):
    fill(a, 5.0)


b = np.zeros(4, np.int64)
fill[1, 4](b, 2)
np.testing.assert_array_equal(b, 2)
calls_fill[1, 1](b)
assert b[0] == 5 and all(b[1:] == 2), b
assert len(fill.signatures) == 2, fill.signatures
assert fill.get_regs_per_thread(fill.signatures[0]) >= 0
print("called kernel signatures ok")
