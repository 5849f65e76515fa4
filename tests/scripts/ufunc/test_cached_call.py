# A CUDA ufunc called again like an earlier call (same kernel types, shapes
# and strides, out= given, default stream) launches its cached plan from C
# (python/ufunc_call.cpp); every other call takes the Python path. Both must
# give NumPy's results on new data, and the cached path must not hide the
# general path's errors or keyword handling.
# stdout: cached ufunc calls ok
import numpy as np

from numba import cuda, float32, float64

rng = np.random.default_rng(20261129)


@cuda.vectorize([float32(float32, float32, float32), float64(float64, float64, float64)])
def axpy(a, x, y):
    return a * x + y


n = 3000
out = cuda.device_array(n, np.float32)
for _ in range(4):  # the first call resolves, the later ones take the cached launch
    hx = rng.standard_normal(n).astype(np.float32)
    hy = rng.standard_normal(n).astype(np.float32)
    a = np.float32(rng.standard_normal())
    x, y = cuda.to_device(hx), cuda.to_device(hy)
    got = axpy(a, x, y, out=out)
    assert got is out
    np.testing.assert_allclose(out.copy_to_host(), a * hx + hy, rtol=1e-5, atol=1e-5)
    # stream=0 is the default stream: the same cached launch.
    assert axpy(a, x, y, out=out, stream=0) is out
    np.testing.assert_allclose(out.copy_to_host(), a * hx + hy, rtol=1e-5, atol=1e-5)

# Another dtype, a view with other strides and a stream: the general path, right too.
hx64 = rng.standard_normal(n)
out64 = cuda.device_array(n, np.float64)
axpy(2.0, cuda.to_device(hx64), cuda.to_device(hx64), out=out64)
np.testing.assert_allclose(out64.copy_to_host(), 3.0 * hx64, rtol=1e-12)
x = cuda.to_device(rng.standard_normal(2 * n).astype(np.float32))
strided = x[::2]
axpy(np.float32(1.5), strided, strided, out=out)
np.testing.assert_allclose(out.copy_to_host(), 2.5 * x.copy_to_host()[::2], rtol=1e-5)
stream = cuda.stream()
res = axpy(np.float32(1.5), strided, strided, out=out, stream=stream)
stream.synchronize()
np.testing.assert_allclose(res.copy_to_host(), 2.5 * x.copy_to_host()[::2], rtol=1e-5)

# Errors of the general path stay as they were after calls were cached.
try:
    axpy(np.float32(1.0), strided, strided, out=out, where=True)
except TypeError as e:
    assert "where" in str(e), e
else:
    raise AssertionError("an unknown keyword was accepted")
try:
    axpy(np.float32(1.0), strided, out=out)
except TypeError as e:
    assert "positional arguments" in str(e) or "argument" in str(e), e
else:
    raise AssertionError("a missing input was accepted")
short = cuda.device_array(10, np.float32)
try:
    axpy(np.float32(1.0), strided, strided, out=short)
except ValueError:
    pass
else:
    raise AssertionError("an output of the wrong shape was accepted")
print("cached ufunc calls ok")
