# Kernels launched on every kind of array argument this area provides:
# DeviceNDArray, strided and transposed views, as_cuda_array views, foreign
# __cuda_array_interface__ objects, host arrays (also non-contiguous), on
# the default stream and on an explicit one. Results checked against NumPy.
# stdout: kernel arguments ok
import numpy as np
from numba import cuda


@cuda.jit
def scale(a, k):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * k


@cuda.jit
def add_index(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] += i * 100 + j


rng = np.random.default_rng(8)
h = rng.standard_normal(300).astype(np.float32)
ref = h.copy()
d = cuda.to_device(h)
scale[10, 32](d, np.float32(2.0))
ref *= 2
assert np.array_equal(d.copy_to_host(), ref)

v = d[5::3]
scale[4, 32](v, np.float32(-0.5))
ref[5::3] *= np.float32(-0.5)
assert np.array_equal(d.copy_to_host(), ref)

s = cuda.stream()
scale[10, 32, s](d[::-1], np.float32(3.0))
s.synchronize()
ref *= 3
assert np.array_equal(d.copy_to_host(), ref)


class Foreign:
    def __init__(self, arr):
        self.arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__


scale[10, 32](Foreign(d), np.float32(0.25))
scale[10, 32](cuda.as_cuda_array(Foreign(d)), np.float32(2.0))
ref *= np.float32(0.25)
ref *= 2
assert np.array_equal(d.copy_to_host(), ref)

hh = h.copy()
scale[10, 32](hh[1::2], np.float32(-1.0))
r2 = h.copy()
r2[1::2] *= -1
assert np.array_equal(hh, r2)

m0 = rng.standard_normal((10, 12))
m = cuda.to_device(m0)
mT = cuda.cudadrv.devicearray.DeviceNDArray(m.shape[::-1], m.strides[::-1], m.dtype, gpu_data=m.gpu_data)
add_index[(2, 2), (8, 8)](mT)  # a transposed view (DeviceNDArray.T is a copy, as in numba-cuda)
expected = m0.copy()
expected.T[...] += np.arange(12)[:, None] * 100 + np.arange(10)[None, :]
assert np.array_equal(m.copy_to_host(), expected)
sub = m[2:8:2, 1:]
add_index[(1, 2), (8, 8)](sub)
expected[2:8:2, 1:] += np.arange(3)[:, None] * 100 + np.arange(11)[None, :]
assert np.array_equal(m.copy_to_host(), expected)
mp = cuda.mapped_array(70, np.float32)
mp[:] = rng.standard_normal(70)
mref = mp.copy()
scale[3, 32](mp, np.float32(4.0))
cuda.synchronize()
assert np.array_equal(mp, mref * 4)
print("kernel arguments ok")
