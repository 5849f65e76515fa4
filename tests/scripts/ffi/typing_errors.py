# Typing errors of foreign calls: wrong arity and an array where a scalar is
# declared name the function and the argument types; ffi.from_buffer of a
# non-contiguous array is a TypingError naming the layout. All raised at the
# launch that specializes the kernel, with the source location.
# stdout: typing errors ok
import os

import numpy as np
from numba import cuda
from numba.core.errors import TypingError

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "ops.cu")
iadd = cuda.declare_device("ffi_iadd", "int32(int32, int32)", link=CU)
fsum = cuda.declare_device("ffi_sum", "float32(CPointer(float32), int32)", link=CU)
hyp = cuda.declare_device("ffi_hypot2", "float64(float64, float64)", link=CU, abi="c")


@cuda.jit
def too_few(out):
    out[0] = iadd(1)


@cuda.jit
def too_many(out):
    out[0] = hyp(1.0, 2.0, 3.0)


@cuda.jit
def array_for_scalar(out, arr):
    out[0] = iadd(arr, 1)


@cuda.jit
def array_for_pointer(out, arr):
    out[0] = fsum(arr, 3)


@cuda.jit
def strided(out, arr):
    out[0] = fsum(cuda.ffi.from_buffer(arr), 3)


def check(kernel, args, *fragments):
    try:
        kernel[1, 1](*args)
    except TypingError as e:
        msg = str(e)
        for frag in fragments:
            assert frag in msg, (frag, msg)
        return
    raise AssertionError("%s launched" % kernel)


here = os.path.basename(__file__)
i32 = np.zeros(1, np.int32)
f32 = np.zeros(1, np.float32)
check(too_few, (i32,), "in 'too_few' at", here + ":20:",
      "invalid call of foreign function 'ffi_iadd' with argument types (int64): it is declared int32(int32, int32)")
check(too_many, (np.zeros(1),), "in 'too_many'", here + ":25:",
      "'ffi_hypot2' with argument types (float64, float64, float64): it is declared float64(float64, float64)")
check(array_for_scalar, (i32, np.zeros(4, np.int32)), here + ":30:",
      "'ffi_iadd' with argument types (array(int32, 1d, C), int64)")
check(array_for_pointer, (f32, np.zeros(4, np.float32)), here + ":35:",
      "'ffi_sum' with argument types (array(float32, 1d, C), int64): it is declared float32(CPointer(float32), int32)")
# Device-array views keep their strides on every backend (a strided host
# array may be staged as a contiguous copy on a GPU).
check(strided, (f32, cuda.to_device(np.arange(10, dtype=np.float32))[::2]), "in 'strided'", here + ":40:",
      "ffi.from_buffer() needs a C- or F-contiguous array, got array(float32, 1d, A)")
check(strided, (f32, cuda.to_device(np.zeros((4, 4), np.float32))[:, 1]), "got array(float32, 1d, A)")
if cuda.backend() == "cpu":
    check(strided, (f32, np.arange(10, dtype=np.float32)[::2]), "got array(float32, 1d, A)")
print("typing errors ok")
