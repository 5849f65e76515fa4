# pinned_array gives a writable NumPy array (page-locked on CUDA) that round
# trips through device memory; pinned() is a context manager.
# stdout: pinned ok
# stdout: mapped ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(11)
p = cuda.pinned_array((64, 33), dtype=np.float32)
assert isinstance(p, np.ndarray) and p.shape == (64, 33) and p.dtype == np.float32 and p.flags["C_CONTIGUOUS"]
p[...] = rng.standard_normal(p.shape)
d = cuda.to_device(p)
q = cuda.pinned_array_like(p)
d.copy_to_host(q)
assert np.array_equal(q, p)
f = cuda.pinned_array((5, 4), np.int64, order="F")
assert f.flags["F_CONTIGUOUS"] and f.strides == (8, 40)
f[...] = np.arange(20).reshape(5, 4)
assert np.array_equal(cuda.to_device(f).copy_to_host(), np.arange(20).reshape(5, 4))
e = cuda.pinned_array(0, np.float64)
assert e.shape == (0,)
h = np.zeros_like(p)  # pinned() page-locks ordinary host arrays (page-locked ones are refused by the driver)
with cuda.pinned(h):
    d.copy_to_host(h)
del p, d
assert np.array_equal(h, q) and h.sum() != 0
print("pinned ok")

# mapped_array: a host array that kernels and device views use in place.
m = cuda.mapped_array((4, 8), np.float32)
assert isinstance(m, np.ndarray) and isinstance(m, cuda.MappedNDArray)
m[...] = rng.standard_normal(m.shape)
assert cuda.is_cuda_array(m)
view = cuda.as_cuda_array(m)
assert view.__cuda_array_interface__["data"][0] == m.ctypes.data
view[1] = 5.0
assert (m[1] == 5.0).all()
col = m[:, 3]
assert col.__cuda_array_interface__["strides"] == (32,)
# mapped(): device views of host arrays, written back after the block.
host = np.arange(6.0)
with cuda.mapped(host) as dh:
    dh[2] = 100.0
assert host[2] == 100.0 and host[3] == 3.0
print("mapped ok")
