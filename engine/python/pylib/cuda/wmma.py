"""cuda.wmma: warp-level matrix multiply-accumulate on tensor cores, in the
spirit of CUDA C++'s nvcuda::wmma (cuhost's extension; numba-cuda has none).

Inside a kernel::

    a = cuda.wmma.fragment(cuda.wmma.matrix_a, 16, 16, 16, float16, cuda.wmma.row_major)
    b = cuda.wmma.fragment(cuda.wmma.matrix_b, 16, 16, 16, float16, cuda.wmma.col_major)
    c = cuda.wmma.fragment(cuda.wmma.accumulator, 16, 16, 16, float32)
    cuda.wmma.fill_fragment(c, 0.0)
    cuda.wmma.load_matrix_sync(a, A, offset_a, lda)
    cuda.wmma.load_matrix_sync(b, B, offset_b, ldb)
    cuda.wmma.mma_sync(c, a, b, c)
    cuda.wmma.store_matrix_sync(C, offset_c, c, ldc, cuda.wmma.mem_row_major)

Typing and lowering live in the engine (sema/typing/wmma.cpp,
codegen/lowering/wmma.cpp); docs/HOPPER.md describes the shapes, the CPU
backend's model and its rounding. On the host these names only exist to be
referenced from kernels.
"""
from .device_api import _DeviceConstant, _DeviceOnly

__all__ = ["fragment", "fill_fragment", "load_matrix_sync", "mma_sync", "store_matrix_sync", "matrix_a",
           "matrix_b", "accumulator", "row_major", "col_major", "mem_row_major", "mem_col_major", "tf32"]


fragment = _DeviceOnly("wmma.fragment")
fill_fragment = _DeviceOnly("wmma.fill_fragment")
load_matrix_sync = _DeviceOnly("wmma.load_matrix_sync")
mma_sync = _DeviceOnly("wmma.mma_sync")
store_matrix_sync = _DeviceOnly("wmma.store_matrix_sync")
matrix_a = _DeviceConstant("wmma.matrix_a")
matrix_b = _DeviceConstant("wmma.matrix_b")
accumulator = _DeviceConstant("wmma.accumulator")
row_major = _DeviceConstant("wmma.row_major")
col_major = _DeviceConstant("wmma.col_major")
mem_row_major = _DeviceConstant("wmma.mem_row_major")
mem_col_major = _DeviceConstant("wmma.mem_col_major")
tf32 = _DeviceConstant("wmma.tf32")
