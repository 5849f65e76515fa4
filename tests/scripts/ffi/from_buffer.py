# ffi.from_buffer inside kernels: cffi.FFI() instances and cuhost's cuda.ffi
# both give the data pointer of C- and F-contiguous arrays, of local and of
# shared arrays, passed to foreign functions declared with CPointer.
# stdout: from_buffer ok
import os

import cffi
import numpy as np
from numba import cuda

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "ops.cu")
fsum = cuda.declare_device("ffi_sum", "float32(CPointer(float32), int32)", link=CU)
scale = cuda.declare_device("ffi_scale_inplace", "void(CPointer(float32), int32, float32)", link=CU, abi="c")
own_ffi = cuda.ffi
try:
    cffi_ffi = cffi.FFI()
except ImportError:  # a cffi without its parser (some GPU bundles): cuda.ffi stands in
    assert cuda.backend() != "cpu"
    cffi_ffi = own_ffi


@cuda.jit
def k_cffi(out, arr):
    if cuda.grid(1) == 0:
        out[0] = fsum(cffi_ffi.from_buffer(arr), arr.size)


@cuda.jit
def k_own(out, arr):
    if cuda.grid(1) == 0:
        out[0] = fsum(own_ffi.from_buffer(arr), arr.size)


@cuda.jit
def k_scale(arr, k):
    if cuda.grid(1) == 0:
        scale(cffi_ffi.from_buffer(arr), arr.size, k)


rng = np.random.default_rng(77)
c2 = rng.random((13, 7), dtype=np.float32)
f2 = np.asfortranarray(rng.random((5, 11), dtype=np.float32))
assert f2.flags.f_contiguous and not f2.flags.c_contiguous
for kern in (k_cffi, k_own):
    for arr in (c2, f2, c2[0]):
        out = np.zeros(1, np.float32)
        kern[1, 32](out, arr)
        np.testing.assert_allclose(out[0], arr.sum(dtype=np.float64), rtol=1e-5)

# A slice with runtime bounds and no step keeps a 1-d C array C (numba's
# typing), so its pointer can be taken: the tail after `start` is summed.
@cuda.jit
def k_tail(out, arr, start):
    if cuda.grid(1) == 0:
        tail = arr[start:]
        out[0] = fsum(own_ffi.from_buffer(tail), tail.size)


flat = rng.random(50, dtype=np.float32)
for start in (0, 17, 49):
    out = np.zeros(1, np.float32)
    k_tail[1, 32](out, flat, start)
    np.testing.assert_allclose(out[0], flat[start:].sum(dtype=np.float64), rtol=1e-5)

# In place through the pointer, C and F order: every element scaled once.
for arr in (c2.copy(), f2.copy()):
    before = arr.copy()
    k_scale[1, 1](arr, np.float32(-2.5))
    np.testing.assert_allclose(arr, before * np.float32(-2.5), rtol=1e-6)


# Local arrays: each thread fills its own, sums it through the pointer.
@cuda.jit
def k_local(out, base):
    i = cuda.grid(1)
    if i < out.size:
        loc = cuda.local.array(16, np.float32)
        for j in range(16):
            loc[j] = base[i] + j
        out[i] = fsum(own_ffi.from_buffer(loc), 16)


base = rng.random(100, dtype=np.float32)
out = np.zeros(100, np.float32)
k_local[1, 128](out, base)
np.testing.assert_allclose(out, 16 * base + 120, rtol=1e-5)


# Shared arrays: the block fills one, thread 0 sums it through the pointer.
@cuda.jit
def k_shared(out, data):
    sh = cuda.shared.array(64, np.float32)
    t = cuda.threadIdx.x
    sh[t] = data[cuda.blockIdx.x * 64 + t]
    cuda.syncthreads()
    if t == 0:
        out[cuda.blockIdx.x] = fsum(cffi_ffi.from_buffer(sh), 64)


data = rng.random(4 * 64, dtype=np.float32)
out = np.zeros(4, np.float32)
k_shared[4, 64](out, data)
np.testing.assert_allclose(out, data.reshape(4, 64).sum(axis=1), rtol=1e-5)


# 2-D shared array, C order.
@cuda.jit
def k_shared2(out, data):
    sh = cuda.shared.array((8, 8), np.float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    sh[ty, tx] = data[ty, tx]
    cuda.syncthreads()
    if tx == 0 and ty == 0:
        out[0] = fsum(own_ffi.from_buffer(sh), 64)


d2 = rng.random((8, 8), dtype=np.float32)
out = np.zeros(1, np.float32)
k_shared2[1, (8, 8)](out, d2)
np.testing.assert_allclose(out[0], d2.sum(), rtol=1e-5)
print("from_buffer ok")
