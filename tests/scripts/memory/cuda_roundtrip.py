# On a GPU: device memory round trips of random data (contiguous, F-order,
# strided views both ways, device-to-device), setitem and as_cuda_array on
# real device pointers.
# backends: cuda
# stdout: cuda roundtrip ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(31)
a = rng.standard_normal((257, 129)).astype(np.float32)
d = cuda.to_device(a)
assert np.array_equal(d.copy_to_host(), a)
ptr = d.__cuda_array_interface__["data"][0]
assert ptr != a.ctypes.data and ptr % 256 == 0
# Strided device views to host and host to strided device views.
assert np.array_equal(d[3:200:7, 1::3].copy_to_host(), a[3:200:7, 1::3])
try:  # numba-cuda refuses views that walk memory backwards
    d[3:200:7, ::-3].copy_to_host()
    raise AssertionError("NotImplementedError not raised")
except NotImplementedError as e:
    assert str(e) == "D->H copy not implemented for negative strides: (3612, -12)", e
assert np.array_equal(d[3:200:7, ::-3][:, ::-1].copy_to_host()[:, ::-1], a[3:200:7, ::-3])
b = a.copy()
patch = rng.standard_normal((20, 43)).astype(np.float32)
d[10:30, ::3] = patch
b[10:30, ::3] = patch
assert np.array_equal(d.copy_to_host(), b)
d[:, 5] = 2.5
b[:, 5] = 2.5
assert np.array_equal(d.copy_to_host(), b)
# Device to device, mixed layouts.
e = cuda.device_array((129, 257), np.float32)
e.copy_to_device(d.T)
assert np.array_equal(e.copy_to_host(), b.T)
f = cuda.device_array_like(np.asfortranarray(b))
try:  # device to device needs the same layout (numba-cuda's check_array_compatibility)
    f.copy_to_device(d)
except ValueError as e:
    assert "incompatible strides" in str(e), str(e)
else:
    raise AssertionError("C to F device copy accepted")
f.copy_to_device(cuda.to_device(np.asfortranarray(b)))
assert np.array_equal(f.copy_to_host(), b) and f.is_f_contiguous()
# as_cuda_array shares device memory.
v = cuda.as_cuda_array(d[1:])
v[0, 0] = 99.0
assert d[1, 0] == np.float32(99.0)
# Scalars read back.
assert d[200, 100] == b[200, 100]
# Large transfer.
big = rng.integers(0, 2**31, size=8 * 1024 * 1024, dtype=np.int64)
assert np.array_equal(cuda.to_device(big).copy_to_host(), big)
free, total = cuda.current_context().get_memory_info()
assert 0 < free <= total
print("cuda roundtrip ok")
