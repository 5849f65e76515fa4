# cuda.wmma's mistakes are TypingErrors at the offending argument: a shape the
# input type lacks, a float32 matrix_a, a missing layout, mixed input types or
# shapes in mma_sync, an array of the wrong dtype or layout, and bf16 or tf32
# fragments compiled for a GPU older than compute capability 8.0.
# stdout: wmma errors: 8 checks passed
# stdout: wmma bounds: ok
import numpy as np
from _typing_errors import TypingErrorChecks
from numba import cuda, float16, bfloat16, float32

wmma = cuda.wmma
errors = TypingErrorChecks(__file__)
expect = errors.expect


def ptx_of(f, sig, cc=None):
    return lambda: cuda.compile_ptx(f, sig, cc=cc)


def bad_shape(A):
    wmma.fragment(wmma.matrix_a, 16, 16, 8, float16, wmma.row_major)


def float32_a(A):
    wmma.fragment(wmma.matrix_a, 16, 16, 16, float32, wmma.row_major)


def no_layout(A):
    wmma.fragment(wmma.matrix_b, 16, 16, 16, float16)


def mixed(A):
    a = wmma.fragment(wmma.matrix_a, 16, 16, 16, float16, wmma.row_major)
    b = wmma.fragment(wmma.matrix_b, 16, 16, 16, bfloat16, wmma.row_major)
    c = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    wmma.mma_sync(c, a, b, c)


def shapes(A):
    a = wmma.fragment(wmma.matrix_a, 16, 16, 16, float16, wmma.row_major)
    b = wmma.fragment(wmma.matrix_b, 16, 16, 16, float16, wmma.row_major)
    c = wmma.fragment(wmma.accumulator, 32, 8, 16, float32)
    wmma.mma_sync(c, a, b, c)


def wrong_dtype(A):
    a = wmma.fragment(wmma.matrix_a, 16, 16, 16, float16, wmma.row_major)
    wmma.load_matrix_sync(a, A, 0, 16)


def strided(A):
    a = wmma.fragment(wmma.matrix_a, 16, 16, 16, float16, wmma.row_major)
    wmma.load_matrix_sync(a, A[:, ::2], 0, 16)


def bf16_on_turing(A):
    a = wmma.fragment(wmma.matrix_a, 16, 16, 16, bfloat16, wmma.row_major)
    wmma.fill_fragment(a, 1.0)


f32 = (float32[:, ::1],)
f16 = (float16[:, ::1],)
expect("cuda.wmma has no 16x16x8 shape for float16 (m x n x k offered: 16x16x16, 32x8x16, 8x32x16)", "bad_shape",
       "wmma.fragment(", ptx_of(bad_shape, f32))
expect("fragments of float32 data are cuda.wmma.tf32", "float32_a", "float32", ptx_of(float32_a, f32))
expect("need a layout: cuda.wmma.row_major or cuda.wmma.col_major", "no_layout", "wmma.fragment(",
       ptx_of(no_layout, f32))
expect("a and b must hold the same type: float16 and bfloat16", "mixed", "b, c)", ptx_of(mixed, f32))
expect("fragments must have one shape: a is 16x16x16, this one 32x8x16", "shapes", "c, a", ptx_of(shapes, f32))
expect("needs a float16 array, got array(float32, 2d, C)", "wrong_dtype", "A, 0", ptx_of(wrong_dtype, f32))
expect("it must be C-contiguous, got array(float16, 2d, A)", "strided", "A[:, ::2]", ptx_of(strided, f16))
expect("cuda.wmma bfloat16 fragments need compute capability 8.0 or newer; this kernel is compiled for 7.5",
       "bf16_on_turing", "wmma.fragment(", ptx_of(bf16_on_turing, f32, cc=(7, 5)))
print("wmma errors: %d checks passed" % errors.checks)


# With bounds checks (the CPU backend's default, debug=True on the GPU) a tile
# that reaches outside its array is an IndexError naming the array.
@cuda.jit(debug=True, opt=False)
def overrun(A, C):
    a = wmma.fragment(wmma.matrix_a, 16, 16, 16, float16, wmma.row_major)
    b = wmma.fragment(wmma.matrix_b, 16, 16, 16, float16, wmma.row_major)
    c = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    wmma.fill_fragment(c, 0)
    wmma.load_matrix_sync(a, A, 0, 16)
    wmma.load_matrix_sync(b, A, 16, 16)  # rows 1..16 of a 16-row array
    wmma.mma_sync(c, a, b, c)
    wmma.store_matrix_sync(C, 0, c, 16, wmma.mem_row_major)


try:
    overrun[1, 32](np.zeros((16, 16), np.float16), np.zeros((16, 16), np.float32))
    raise AssertionError("a tile past the end of its array was loaded")
except IndexError as e:
    assert "index 271 is out of bounds for axis 0 with size 256" in str(e) and "'A'" in str(e), str(e)
print("wmma bounds: ok")
