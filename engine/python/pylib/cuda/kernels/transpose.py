"""numba.cuda.kernels.transpose: the transpose of a 2-d device array.

transpose(a, b=None) writes the transpose of `a` into `b` (a new
C-contiguous device array when not given) with a kernel that moves the
data through shared-memory tiles, so both the reads and the writes of a
warp touch consecutive addresses. It is what DeviceNDArray.transpose() and
.T return for 2-d arrays (a copy, as in numba-cuda). Any element type works,
records included; a kernel is compiled once per element type.
"""
import math
import threading

from .. import api as _api, blockDim, blockIdx, jit, shared, syncthreads, threadIdx
from ..np.numpy_support import from_dtype

_kernels = {}
_lock = threading.Lock()


def _tile_shape():
    tpb = _api.get_current_device().MAX_THREADS_PER_BLOCK
    width = int(2 ** (math.log2(tpb) // 2))
    return tpb // width, width


def _kernel(dtype, tile_height, tile_width):
    key = (dtype, tile_height, tile_width)
    with _lock:
        kernel = _kernels.get(key)
        if kernel is not None:
            return kernel

    element = from_dtype(dtype)
    tile_shape = (tile_height, tile_width + 1)  # the extra column keeps a column's reads off one bank

    @jit
    def transpose_kernel(src, dst):
        tile = shared.array(shape=tile_shape, dtype=element)
        tx = threadIdx.x
        ty = threadIdx.y
        bx = blockIdx.x * blockDim.x
        by = blockIdx.y * blockDim.y
        if by + ty < src.shape[0] and bx + tx < src.shape[1]:
            tile[ty, tx] = src[by + ty, bx + tx]
        syncthreads()
        y = bx + ty
        x = by + tx
        if y < dst.shape[0] and x < dst.shape[1]:
            dst[y, x] = tile[tx, ty]

    with _lock:
        _kernels[key] = transpose_kernel
    return transpose_kernel


def transpose(a, b=None):
    """The transpose of the 2-d device array `a`, written into `b` (a new
    device array when None) and returned. `b` must have the transposed shape
    and `a`'s dtype."""
    if a.ndim != 2:
        raise ValueError("transpose needs a 2-d device array, got %d dimension(s)" % a.ndim)
    stream = a.stream
    rows, cols = a.shape
    if b is None:
        b = _api.device_array((cols, rows), dtype=a.dtype, stream=stream)
    elif tuple(b.shape) != (cols, rows) or b.dtype != a.dtype:
        raise ValueError("transpose: the output must be %s of %s, not %s of %s" %
                         ((cols, rows), a.dtype, tuple(b.shape), b.dtype))
    if not a.size:
        return b
    tile_height, tile_width = _tile_shape()
    kernel = _kernel(a.dtype, tile_height, tile_width)
    # blockIdx.x walks the source's columns (the output's rows), blockIdx.y its rows.
    blocks = (cols + tile_width - 1) // tile_width, (rows + tile_height - 1) // tile_height
    threads = tile_width, tile_height
    if stream:
        kernel[blocks, threads, stream](a, b)
    else:
        kernel[blocks, threads](a, b)
    return b
