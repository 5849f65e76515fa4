# Slicing views, integer indexing, assignment, reshape/ravel of
# DeviceNDArray, checked against NumPy on random data.
# stdout: indexing ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(99)
a = rng.standard_normal((6, 7, 5))
d = cuda.to_device(a)

keys = [np.s_[1:4], np.s_[::2, 1::3], np.s_[:, :, ::-1], np.s_[-1], np.s_[2, :, 3], np.s_[..., 1],
        np.s_[1, ...], np.s_[::-2, 5:1:-1, :], np.s_[3:3], np.s_[-5:-1, -3], np.s_[0, 0]]
for k in keys:
    v = d[k]
    ref = a[k]
    assert isinstance(v, cuda.DeviceNDArray), k
    assert v.shape == ref.shape, (k, v.shape, ref.shape)
    assert v.strides == ref.strides, (k, v.strides, ref.strides)
    if any(st < 0 for st in v.strides):
        # numba-cuda copies a view's extent in one memcpy and refuses views
        # that walk memory backwards; the view itself reads the right data,
        # seen through the view of it with every axis forwards.
        try:
            v.copy_to_host()
            raise AssertionError("copy_to_host of %s: NotImplementedError not raised" % (k,))
        except NotImplementedError as e:
            assert str(e) == "D->H copy not implemented for negative strides: %s" % (v.strides,), e
        forwards = tuple(slice(None, None, -1) if st < 0 else slice(None) for st in v.strides)
        assert np.array_equal(v[forwards].copy_to_host()[forwards], ref), k
    else:
        assert np.array_equal(v.copy_to_host(), ref), k
    # Views share memory with the parent.
    assert v.alloc_size == d.alloc_size

# All-integer indexing reads one element as a NumPy scalar.
x = d[2, 3, 4]
assert type(x) is np.float64 and x == a[2, 3, 4]
assert d[-1, -1, -1] == a[-1, -1, -1]
i = cuda.to_device(np.arange(10, dtype=np.int32))
assert type(i[7]) is np.int32 and i[7] == 7 and i[-3] == 7
assert len(d) == 6 and len(d[0]) == 7

# Views of views.
vv = d[1:5][::2, 2:]
assert np.array_equal(vv.copy_to_host(), a[1:5][::2, 2:])

# Assignment: scalars, host arrays (broadcast), device arrays, into views.
b = a.copy()
d[0] = 3.25
b[0] = 3.25
d[1:3, ::2, 1] = -1
b[1:3, ::2, 1] = -1
row = rng.standard_normal(5)
d[4, 2:5] = row
b[4, 2:5] = row
d[5, :, ::-1] = b[3]
b[5, :, ::-1] = b[3]
src = cuda.to_device(rng.standard_normal((7, 5)))
d[2] = src
b[2] = src.copy_to_host()
d[3, 1, 2] = 42
b[3, 1, 2] = 42
d[..., 0] = np.arange(7)
b[..., 0] = np.arange(7)
assert np.array_equal(d.copy_to_host(), b)

# Assigning through a view is visible in the parent.
v = d[:, 0]
v[:] = 9.5
b[:, 0] = 9.5
assert np.array_equal(d.copy_to_host(), b)

# reshape / ravel / transpose.
c = cuda.to_device(np.arange(24, dtype=np.float32))
r = c.reshape(4, 6)
assert r.shape == (4, 6) and np.array_equal(r.copy_to_host(), np.arange(24, dtype=np.float32).reshape(4, 6))
r2 = c.reshape((2, -1, 3))
assert r2.shape == (2, 4, 3)
rf = c.reshape(4, 6, order="F")
assert np.array_equal(rf.copy_to_host(), np.arange(24, dtype=np.float32).reshape(4, 6, order="F"))
assert r.ravel().shape == (24,)
# (transpose and .T: memory/transpose.py)
# A flat view of a non-contiguous array would need a copy: refused, as in numba-cuda.
strided = r[:, ::2]
try:
    strided.ravel()
    raise SystemExit("ravel of a non-contiguous view accepted")
except NotImplementedError as err:
    assert str(err) == "operation requires copying"
try:
    strided.reshape(12)
    raise SystemExit("reshape of a non-contiguous view accepted")
except NotImplementedError as err:
    assert "non-contiguous" in str(err)
try:
    c.reshape(5, 5)
    raise SystemExit("bad reshape accepted")
except ValueError as err:
    assert str(err) == "cannot reshape array of size 24 into the requested shape"

# Index errors.
for k, msg in [((6, 0, 0), "index 6 is out of bounds for axis 0 with size 6"),
               ((0, -8), "index -8 is out of bounds for axis 1 with size 7"),
               ((0, 0, 0, 0), "too many indices for array: array is 3-dimensional, but 4 were indexed"),
               ((..., ...), "an index can only have a single ellipsis ('...')")]:
    try:
        d[k]
        raise SystemExit("bad index accepted: %r" % (k,))
    except IndexError as err:
        assert str(err) == msg, (str(err), msg)
try:
    d[[0, 1]]
    raise SystemExit("fancy index accepted")
except IndexError as err:
    assert "only integers, slices (':') and ellipsis ('...') are valid indices" in str(err)
try:
    len(cuda.to_device(np.float64(1.0)))
    raise SystemExit("len of 0-d accepted")
except TypeError as err:
    assert str(err) == "len() of unsized object"
# Iteration yields one view (or scalar) per leading index; np.asarray copies to the host.
rows = [r.copy_to_host() for r in cuda.to_device(a[:, :, 0])]
assert len(rows) == 6 and all(np.array_equal(r, a[k, :, 0]) for k, r in enumerate(rows))
ints = cuda.to_device(np.arange(5, dtype=np.int64) * 3)
assert list(ints) == [0, 3, 6, 9, 12]
assert np.array_equal(np.asarray(cuda.to_device(a)), a)
assert np.asarray(cuda.to_device(a), dtype=np.float32).dtype == np.float32
# view(dtype), bind(stream), squeeze().
raw = rng.integers(0, 2**31, size=(3, 8)).astype(np.uint32)
dr = cuda.to_device(raw)
as_f = dr.view(np.float32)
assert as_f.dtype == np.float32 and as_f.shape == (3, 8) and np.array_equal(as_f.copy_to_host().view(np.uint32), raw)
as_u8 = dr.view(np.uint8)
assert as_u8.shape == (3, 32) and np.array_equal(as_u8.copy_to_host(), raw.view(np.uint8))
as_u64 = dr.view(np.uint64)
assert as_u64.shape == (3, 4) and np.array_equal(as_u64.copy_to_host(), raw.view(np.uint64))
try:
    dr[:, ::2].view(np.uint64)
    raise SystemExit("view of a strided last axis accepted")
except ValueError as err:
    assert str(err) == "To change to a dtype of a different size, the last axis must be contiguous", err
st = cuda.stream()
assert dr.bind(st).stream is st and dr.stream == 0
sq = cuda.to_device(a[:, :1, 2:3]).squeeze()
assert sq.shape == (6,) and np.array_equal(sq.copy_to_host(), a[:, 0, 2])
assert cuda.to_device(a[:1, :, :1]).squeeze(axis=2).shape == (1, 7)
print("indexing ok")
