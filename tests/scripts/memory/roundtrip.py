# Host <-> device copies of random data for every dtype, C and F order,
# into given arrays, between device arrays, and their error messages.
# stdout: roundtrip ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(1234)


def random_array(shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), size=shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


dtypes = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.float32,
          np.float64, np.complex64, np.complex128]
for dt in dtypes:
    for shape in [(17,), (5, 7), (3, 4, 6)]:
        a = random_array(shape, dt)
        d = cuda.to_device(a)
        assert isinstance(d, cuda.DeviceNDArray)
        assert d.shape == a.shape and d.dtype == a.dtype and d.ndim == a.ndim
        assert d.strides == a.strides and d.size == a.size and d.nbytes == a.nbytes and d.itemsize == a.itemsize
        h = d.copy_to_host()
        assert h.dtype == a.dtype and np.array_equal(h, a), (dt, shape)
        assert h.ctypes.data != a.ctypes.data

# Fortran order is kept.
f = np.asfortranarray(random_array((6, 5), np.float64))
df = cuda.to_device(f)
assert df.is_f_contiguous() and not df.is_c_contiguous() and df.strides == f.strides
hf = df.copy_to_host()
assert hf.flags["F_CONTIGUOUS"] and np.array_equal(hf, f)

# copy_to_host into a given array of the same layout; a strided target is
# refused as in numba-cuda (its copies are one memcpy of the array's bytes).
a = random_array((8, 9), np.float32)
d = cuda.to_device(a)
out = np.zeros_like(a)
r = d.copy_to_host(out)
assert r is out and np.array_equal(out, a)
big = np.zeros((16, 18), np.float32)
try:
    d.copy_to_host(big[::2, ::2])
    raise SystemExit("copy_to_host into a strided view accepted")
except ValueError as err:
    assert str(err) == "incompatible strides: (36, 4) vs. (144, 8)", err

# copy_to_device from host (non-contiguous too) and from another device array.
b = random_array((8, 9), np.float32)
d.copy_to_device(b)
assert np.array_equal(d.copy_to_host(), b)
c = random_array((16, 9), np.float32)
d.copy_to_device(c[::2])
assert np.array_equal(d.copy_to_host(), c[::2])
e = cuda.device_array_like(a)
e.copy_to_device(d)
assert np.array_equal(e.copy_to_host(), c[::2])

# device_array / device_array_like.
z = cuda.device_array((3, 4), dtype=np.int16)
assert z.shape == (3, 4) and z.dtype == np.int16 and z.strides == (8, 2)
z2 = cuda.device_array(10)
assert z2.shape == (10,) and z2.dtype == np.float64
zf = cuda.device_array((3, 4), np.float32, order="F")
assert zf.strides == (4, 12) and zf.is_f_contiguous()
like = cuda.device_array_like(f)
assert like.shape == f.shape and like.dtype == f.dtype and like.is_f_contiguous()

# to_device of lists and with to=.
l = cuda.to_device([1.5, 2.5, 3.5])
assert l.dtype == np.float64 and list(l.copy_to_host()) == [1.5, 2.5, 3.5]
tgt = cuda.device_array(3)
assert cuda.to_device(np.array([4.0, 5.0, 6.0]), to=tgt) is tgt
assert list(tgt.copy_to_host()) == [4.0, 5.0, 6.0]
assert cuda.to_device(tgt) is tgt

# 0-d and empty arrays.
s = cuda.to_device(np.float32(2.5))
assert s.shape == () and s.ndim == 0 and s.copy_to_host()[()] == np.float32(2.5)
empty = cuda.to_device(np.zeros((0, 4), np.int32))
assert empty.shape == (0, 4) and empty.copy_to_host().shape == (0, 4)

# Errors (numba-cuda's classes and messages).
try:
    d.copy_to_host(np.zeros((9, 8), np.float32))
    raise SystemExit("shape mismatch not detected")
except ValueError as err:
    assert str(err) == "incompatible shape: (8, 9) vs. (9, 8)", str(err)
try:
    d.copy_to_host(np.zeros((8, 9), np.float64))
    raise SystemExit("dtype mismatch not detected")
except TypeError as err:
    assert str(err) == "incompatible dtype: float32 vs. float64", str(err)
try:
    d.copy_to_device(np.zeros(3, np.float32))
    raise SystemExit("shape mismatch not detected")
except ValueError as err:
    assert str(err) == "incompatible shape: (8, 9) vs. (3,)", str(err)
try:
    d[:, ::2].copy_to_device(np.zeros((8, 5), np.float32))
    raise SystemExit("copy into a strided view accepted")
except ValueError as err:
    assert str(err).startswith("Array contains non-contiguous buffer"), str(err)
try:
    cuda.device_array((2, -1))
    raise SystemExit("negative shape accepted")
except ValueError as err:
    assert str(err) == "negative dimensions are not allowed"
try:
    cuda.to_device(np.array([object()]))
    raise SystemExit("object array accepted")
except TypeError as err:
    assert "cannot hold Python objects" in str(err)
print("roundtrip ok")
