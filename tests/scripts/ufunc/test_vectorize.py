# @vectorize(target="cuda"): results against NumPy on random data for every
# loop type, C/F/strided inputs of 1-4 dimensions, NumPy broadcasting
# (missing and length-1 axes), scalar and sequence arguments, out= on host
# and device arrays, stream=, safe casting to the first matching loop,
# complex loops, a ufunc calling a device function, dynamic (signature-less)
# ufuncs, .reduce, and an input larger than one grid (grid-stride loop).
# stdout: vectorize ok
import math

import numpy as np
from numba import cuda, vectorize as numba_vectorize
from numba.cuda.cudadrv.devicearray import DeviceNDArray
from numba.cuda import vectorize, float32, float64, int32, int64, uint32, complex128

rng = np.random.default_rng(11)


@vectorize([int32(int32, int32), float32(float32, float32), float64(float64, float64)])
def add(a, b):
    return a + b


@vectorize(["float32(float32, float32, float32)", "float64(float64, float64, float64)"])
def saxpy(a, x, y):
    return a * x + y


def check(got, want, dtype=None, rtol=1e-6):
    got = np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    if dtype is not None:
        assert got.dtype == dtype, (got.dtype, dtype)
    np.testing.assert_allclose(got, want, rtol=rtol)


# Every loop, keeping its dtype.
for dt in (np.int32, np.float32, np.float64):
    a = (rng.standard_normal(1001) * 100).astype(dt)
    b = (rng.standard_normal(1001) * 100).astype(dt)
    check(add(a, b), a + b, dt)

# 1-4 dimensions, C, F and strided layouts.
for nd in range(1, 5):
    x = rng.standard_normal((3,) * nd + (5,))
    y = np.asfortranarray(rng.standard_normal((3,) * nd + (5,)))
    check(add(x, y), x + y, np.float64)
    check(add(x[..., ::2], y[..., ::-2]), x[..., ::2] + y[..., ::-2], np.float64)

# Broadcasting: missing leading axes and length-1 axes, host and device.
a = rng.standard_normal((40, 3, 1))
b = a.transpose(2, 1, 0)
check(add(a, b), a + b)
check(add(cuda.to_device(a), cuda.to_device(b)).copy_to_host(), a + b)
row = rng.standard_normal(7)
mat = rng.standard_normal((6, 7))
check(add(mat, row), mat + row)
check(add(row, cuda.to_device(mat)).copy_to_host(), row + mat)

# Scalars: Python and NumPy scalars broadcast; all scalars give a scalar.
x = rng.standard_normal(100).astype(np.float32)
check(saxpy(np.float32(2.5), x, x), np.float32(2.5) * x + x, np.float32, rtol=1e-6)
check(saxpy(2.5, x, 1.0), 2.5 * x + 1.0, np.float32, rtol=1e-6)
s = add(1.25, 2.5)
assert np.ndim(s) == 0 and s == 3.75, s
assert add(3, 4) == 7

# Sequences are arrays.
check(add((1.0, 2.0, 3.0), [4.0, 5.0, 6.0]), np.array([5.0, 7.0, 9.0]))

# out= on the host and on the device (kept on the device), 2-d, in place.
xs = rng.standard_normal((8, 9))
out = np.empty_like(xs)
assert add(xs, xs, out=out) is out
check(out, xs + xs)
dx = cuda.to_device(xs)
r = add(dx, dx, out=dx)
assert r is dx
check(dx.copy_to_host(), xs + xs)
out2 = np.empty_like(xs)
add(xs, xs, out2)  # out given positionally
check(out2, xs + xs)

# Device inputs give a device result; stream= orders the work on that stream.
stream = cuda.stream()
for dt in (np.float64, np.float32, np.int32):
    h = (rng.standard_normal(5000) * 50).astype(dt)
    d = cuda.to_device(h, stream)
    r = add(d, d, stream=stream)
    assert isinstance(r, DeviceNDArray)
    got = r.copy_to_host(stream=stream)
    stream.synchronize()
    check(got, h + h, dt)

# Repeated calls (the cached plan): new arrays of the same kind, other
# strides (C, F, sliced), other streams, with and without out=.
streams = [cuda.stream(), cuda.stream(), 0]
for rep in range(6):
    h = rng.standard_normal((6, 5))
    if rep % 3 == 1:
        h = np.asfortranarray(h)
    d = cuda.to_device(h)
    if rep % 3 == 2:
        d = d[:, ::2]
        h = h[:, ::2]
    st = streams[rep % 3]
    r = saxpy(np.float64(rep), d, d, stream=st)
    check(r.copy_to_host(stream=st) if st else r.copy_to_host(), rep * h + h, np.float64)
    o = cuda.device_array(h.shape, np.float64)
    saxpy(np.float64(-rep), d, d, out=o, stream=st)
    if st:
        st.synchronize()
    check(o.copy_to_host(), -rep * h + h, np.float64)

# Loop selection: exact first, then the first loop the inputs cast to safely.
i16 = rng.integers(-1000, 1000, 50).astype(np.int16)
check(add(i16, i16), (i16 + i16).astype(np.int32), np.int32)
u32 = rng.integers(0, 1000, 50).astype(np.uint32)
check(add(u32, u32), (u32.astype(np.float64) * 2), np.float64)  # uint32 -> int32 is unsafe: float64
f32 = rng.standard_normal(50).astype(np.float32)
check(add(f32, i16), f32 + i16, np.float32)


# Complex loops.
@vectorize([complex128(complex128, complex128)])
def cmul(a, b):
    return a * b + 1.0


z = rng.standard_normal(64) + 1j * rng.standard_normal(64)
check(cmul(z, z[::-1]), z * z[::-1] + 1.0, np.complex128, rtol=1e-12)


# A ufunc calling a device function, and a math-heavy body.
@cuda.jit(device=True)
def scaled_sinc(x, scale):
    if x == 0.0:
        return scale
    return scale * math.sin(x * math.pi) / (math.pi * x)


@numba_vectorize(["float64(float64, uint32)"], target="cuda")
def sinc(x, scale):
    return scaled_sinc(x, scale)


xs = np.linspace(-4, 4, 301)
want = np.where(xs == 0, 3.0, 3 * np.sin(xs * np.pi) / (np.pi * np.where(xs == 0, 1, xs)))
check(sinc(xs, np.uint32(3)), want, rtol=1e-12)


# A dynamic ufunc compiles a loop per new input type.
@vectorize
def hyp(a, b):
    return math.sqrt(a * a + b * b)


a32 = rng.random(100).astype(np.float32)
check(hyp(a32, a32), np.sqrt(a32 * a32 + a32 * a32), np.float32, rtol=1e-6)
check(hyp(a32.astype(np.float64), 1.0), np.sqrt(a32.astype(np.float64) ** 2 + 1.0), np.float64)
assert len(hyp.types) == 2, hyp.types
assert hyp.__name__ == "hyp"

# reduce over a binary ufunc (host and device input, odd sizes).
for n in (1, 2, 7, 1000, 4097):
    v = rng.integers(-100, 100, n).astype(np.int32)
    assert add.reduce(v) == v.sum(), n
    assert add.reduce(cuda.to_device(v)) == v.sum(), n

# Larger than one launch's resident threads: the kernel strides over the rest.
big = rng.standard_normal(300_000).astype(np.float32)
check(saxpy(np.float32(0.5), big, big), np.float32(0.5) * big + big, np.float32)

# Pickled by value (a local function too), rebuilt with its loops.
import pickle  # noqa: E402


def make_scaler(k):
    @vectorize(["float64(float64)", "int64(int64)"])
    def scale(v):
        return v * k

    return scale


sc = pickle.loads(pickle.dumps(make_scaler(3)))
check(sc(np.arange(5.0)), np.arange(5.0) * 3, np.float64)
check(sc(np.arange(5)), np.arange(5) * 3, np.int64)
assert sc.__name__ == "scale" and len(sc.types) == 2

print("vectorize ok")
