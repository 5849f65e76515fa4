# pinned_array gives a writable NumPy array (page-locked on CUDA) that round
# trips through device memory; pinned() is a context manager.
# stdout: pinned ok
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
with cuda.pinned(p, q):
    d.copy_to_host(q)
del p, d
assert q.sum() != 0
print("pinned ok")
