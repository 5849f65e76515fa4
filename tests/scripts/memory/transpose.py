# DeviceNDArray.transpose / .T and numba.cuda.kernels.transpose: a 2-d array's
# transpose is a new C-contiguous array (numba-cuda's semantics, not a view),
# computed by a shared-memory tiled kernel, checked against NumPy on random
# data of several shapes and element types (records and booleans included);
# the identity permutation is the array itself; bad axes and other ranks are
# refused with numba-cuda's messages.
# stdout: transpose ok
import numpy as np
from numba import cuda
from numba.cuda.kernels.transpose import transpose

rng = np.random.default_rng(5)
for rows, cols, dtype in ((1, 1, np.float64), (5, 6, np.float32), (33, 65, np.int16), (128, 31, np.complex128),
                          (70, 1025, np.float64)):
    x = rng.standard_normal((rows, cols)).astype(dtype)
    d = cuda.to_device(x)
    t = d.T
    assert t.shape == (cols, rows) and t.is_c_contiguous(), (t.shape, t.strides)
    assert np.array_equal(t.copy_to_host(), x.T), (rows, cols, dtype)
    assert np.array_equal(d.transpose().copy_to_host(), x.T)
    out = cuda.device_array((cols, rows), dtype=dtype)
    assert transpose(d, out) is out and np.array_equal(out.copy_to_host(), x.T)

# Views transpose to contiguous copies with their own strides.
a = np.arange(120, dtype=np.int64).reshape(10, 12)
v = cuda.to_device(a)[::2, ::2].T
assert v.shape == (6, 5) and v.strides == (40, 8)
assert np.array_equal(v.copy_to_host(), a[::2, ::2].T)

# Booleans and records.
b = rng.integers(0, 2, size=(17, 14)).astype(np.bool_)
assert np.array_equal(cuda.to_device(b).T.copy_to_host(), b.T)
rec = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
r = np.zeros((9, 13), dtype=rec)
r["i"] = rng.integers(0, 1000, size=r.shape)
r["j"] = rng.standard_normal(r["j"].shape)
dr = cuda.device_array_like(r.T)
transpose(cuda.to_device(r), dr)
assert np.array_equal(dr.copy_to_host(), r.T)

# Not a view: writing to the transpose leaves the original alone.
d = cuda.to_device(a.astype(np.float64))
t = d.T
t[0, 0] = -1
assert d[0, 0] == 0

# Identity axes, bad axes, other ranks.
assert d.transpose((0, 1)) is d
for bad in ((0, 0), (0, 2)):
    try:
        d.transpose(bad)
        raise SystemExit("transpose accepted %r" % (bad,))
    except ValueError as err:
        assert str(err) == "invalid axes list %r" % (bad,), err
three = cuda.to_device(np.zeros((2, 3, 4)))
assert three.transpose((0, 1, 2)) is three
try:
    three.T
    raise SystemExit("transpose of a 3-d array accepted")
except NotImplementedError as err:
    assert str(err) == "transposing a non-2D DeviceNDArray isn't supported"
print("transpose ok")
