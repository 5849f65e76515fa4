# The lut plugin's host library fills a __device__ sine table when the module
# that links lut's functions loads; kernels read it. Checked against NumPy
# on random indices and random angles, and each new kernel module is set up
# again (its own copy of the table).
import numpy as np
from numba import cuda
from cuhost.plugins import lut

rng = np.random.default_rng(7)
idx = rng.integers(-1000, 1000, 500).astype(np.int32)
turns = rng.uniform(-3.0, 3.0, 500).astype(np.float32)
table = np.sin(2.0 * np.pi * np.arange(256) / 256.0).astype(np.float32)


@cuda.jit
def at(out, idx):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = lut.sin_at(idx[i])


@cuda.jit
def interp(out, t, flags):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = lut.sin_turns(t[i])
        flags[i] = lut.ready()


out = np.zeros(idx.size, np.float32)
at[4, 128](out, idx)
np.testing.assert_array_equal(out, table[idx % 256])

# Reference interpolation in float64 from the float32 table.
x = turns.astype(np.float64) * 256.0
i0 = np.floor(x).astype(np.int64)
f = x - i0
ref = table[i0 % 256] + f * (table[(i0 + 1) % 256].astype(np.float64) - table[i0 % 256])
flags = np.zeros(idx.size, np.int32)
out2 = np.zeros(idx.size, np.float32)
interp[4, 128](out2, turns, flags)
np.testing.assert_allclose(out2, ref, rtol=0, atol=2e-6)
np.testing.assert_allclose(out2, np.sin(2.0 * np.pi * turns.astype(np.float64)), rtol=0, atol=2e-4)
assert (flags == 1).all(), flags
print("lut ok")
