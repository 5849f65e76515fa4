# Arrays: 1-3 dimensions, C and F order and non-contiguous views, negative
# indices, shape/size/ndim/len, tuple indices, every integer and float dtype,
# bool arrays, and in-place augmented assignment on elements.
import numpy as np
from numba import cuda

rng = np.random.default_rng(5)


@cuda.jit
def copy3d(a, out):
    i, j, k = cuda.grid(3)
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        out[i, j, k] = a[i, j, k] * 2 + a.ndim


a = rng.random((5, 6, 7))
out = np.zeros_like(a)
copy3d[(1, 2, 2), (8, 4, 4)](a, out)
np.testing.assert_allclose(out, a * 2 + 3)

# F-ordered input and a strided view
af = np.asfortranarray(rng.random((9, 10)))
view = rng.random((20, 30))[::2, 1::3]


@cuda.jit
def add2d(a, b, out):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] + b[i, j]


out2 = np.zeros((9, 10))
add2d[(2, 2), (8, 8)](af, view[:9, :10].copy(), out2)
np.testing.assert_allclose(out2, af + view[:9, :10])
out3 = np.zeros((10, 10))
add2d[(2, 2), (8, 8)](view, view, out3)
np.testing.assert_allclose(out3, view + view)


@cuda.jit
def negative_and_attrs(a, out):
    if cuda.grid(1) == 0:
        out[0] = a[-1]
        out[1] = a[-a.size]
        out[2] = a.size
        out[3] = len(a)
        out[4] = a.shape[0]
        out[5] = a.ndim
        t = (1, 2)
        out[6] = a[t[0]] + a[t[1]]
        out[7] = a[a.size // 2]


v = rng.random(17)
o = np.zeros(8)
negative_and_attrs[1, 32](v, o)
np.testing.assert_allclose(o, [v[-1], v[0], 17, 17, 17, 1, v[1] + v[2], v[8]])


@cuda.jit
def tuple_index(m, out):
    i = cuda.grid(1)
    if i < m.shape[0]:
        idx = (i, m.shape[1] - 1)
        out[i] = m[idx]
        out[i] += m[i, 0]
        out[i] *= 2


m = rng.random((13, 4))
ot = np.zeros(13)
tuple_index[1, 32](m, ot)
np.testing.assert_allclose(ot, (m[:, -1] + m[:, 0]) * 2)


@cuda.jit
def scale_any(src, dst):
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i] * 3


for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.float32,
           np.float64):
    info = np.iinfo(dt) if np.issubdtype(dt, np.integer) else None
    hi = min(info.max // 3, 1000) if info else 100
    lo = 0 if info is None or info.min == 0 else -hi
    src = rng.integers(lo, hi, 100).astype(dt) if info else rng.random(100).astype(dt)
    dst = np.zeros_like(src)
    scale_any[4, 32](src, dst)
    np.testing.assert_array_equal(dst, (src * 3).astype(dt), err_msg=str(dt))


@cuda.jit
def bools(x, flags):
    i = cuda.grid(1)
    if i < x.size:
        flags[i] = x[i] > 0.5 and not (x[i] > 0.9)


xb = rng.random(64)
fb = np.zeros(64, np.bool_)
bools[2, 32](xb, fb)
np.testing.assert_array_equal(fb, (xb > 0.5) & ~(xb > 0.9))
print("arrays ok")
