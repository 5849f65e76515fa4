# env: CUHOST_LUT_GAIN=-0.75
# env: CUHOST_LUT_TRACE=1
# stdout: lut gain ok
# stderr: lut: set up kernel 'scaled' on
# stderr: lut: set up kernel 'scaled2' on
# stderr: lut: tear down kernel 'scaled' on
# stderr: (ready=1)
# The host library reads its settings when it sets a module up (the gain
# from CUHOST_LUT_GAIN), runs once per module (two kernels: two setups) and
# tears each module down at exit (CUHOST_LUT_TRACE prints each step).
import numpy as np
from numba import cuda
from cuhost.plugins import lut

idx = np.random.default_rng(11).integers(0, 100000, 300).astype(np.int32)
table = np.sin(2.0 * np.pi * np.arange(256) / 256.0).astype(np.float32)


@cuda.jit
def scaled(out, idx):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = lut.sin_at(idx[i])


@cuda.jit
def scaled2(out, idx):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = lut.sin_at(idx[i]) * 2.0


out = np.zeros(idx.size, np.float32)
scaled[3, 128](out, idx)
np.testing.assert_array_equal(out, np.float32(-0.75) * table[idx % 256])
scaled2[3, 128](out, idx)
np.testing.assert_array_equal(out, (np.float32(-0.75) * table[idx % 256]) * np.float32(2.0))
print("lut gain ok")
