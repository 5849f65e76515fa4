# Device arrays read as globals or closure variables are captured by
# reference (numba-cuda's rule): kernels and device functions read and write
# the memory in place, with the array's layout; cache=True refuses them with
# a PicklingError, since an address belongs to this process.
# stdout: captured ok
import pickle

import numpy as np
from numba import cuda

rng = np.random.default_rng(21)
table = rng.random(64)
d_table = cuda.to_device(table)
counts = cuda.to_device(np.zeros(8, np.int64))
grid2 = cuda.to_device(rng.random((6, 10)))
strided = cuda.to_device(rng.random(40))[::4]  # an 'A' layout view


@cuda.jit(device=True)
def lookup(i):
    return d_table[i]


@cuda.jit
def gather(out, idx):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = lookup(idx[i]) * 2.0 + strided[i % strided.size] + grid2[i % 6, i % 10]
        cuda.atomic.add(counts, i % 8, 1)


idx = rng.integers(0, 64, 100)
out = np.zeros(100)
gather[4, 32](out, idx)
h_strided, h_grid2 = strided.copy_to_host(), grid2.copy_to_host()
i = np.arange(100)
np.testing.assert_array_equal(out, table[idx] * 2.0 + h_strided[i % 10] + h_grid2[i % 6, i % 10])
np.testing.assert_array_equal(counts.copy_to_host(), np.bincount(i % 8, minlength=8))


def make_scaler(buf):
    @cuda.jit
    def scale(k):
        j = cuda.grid(1)
        if j < buf.size:
            buf[j] *= k  # a closure variable: written in place

    return scale


data = rng.random(50)
d_data = cuda.to_device(data)
make_scaler(d_data)[2, 32](3.0)
np.testing.assert_array_equal(d_data.copy_to_host(), data * 3.0)

# The address is captured at compile time; rebinding the global later does
# not change an already compiled kernel (as numba-cuda).
before = d_table
d_table = cuda.to_device(np.zeros(64))
gather[4, 32](out, idx)
assert out[0] != 0.0
d_table = before

try:
    @cuda.jit(cache=True)
    def cached(o):
        o[0] = d_table[0]

    cached[1, 1](np.zeros(1))
    raise SystemExit("a kernel capturing a device array was cached")
except pickle.PicklingError as err:
    assert "references global device arrays" in str(err), str(err)
print("captured ok")
