# backends: cuda
# env: CUHOST_LUT_TRACE=1
# stdout: lut gpu ok
# stderr: lut: set up kernel 'gather' on cuda
# stderr: lut: tear down kernel 'gather' on cuda (ready=1)
# On a GPU the host library writes the table into the loaded CUlibrary's
# __device__ memory (cuMemcpyHtoD); a second launch reuses the module, and
# the teardown runs when the module unloads at exit (reading the flag back
# with cuMemcpyDtoH).
import numpy as np
from numba import cuda
from cuhost.plugins import lut

rng = np.random.default_rng(5)
idx = rng.integers(-5000, 5000, 4096).astype(np.int32)
turns = rng.uniform(-2.0, 2.0, 4096).astype(np.float32)
table = np.sin(2.0 * np.pi * np.arange(256) / 256.0).astype(np.float32)


@cuda.jit
def gather(out, idx, t, smooth):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = lut.sin_at(idx[i])
        smooth[i] = lut.sin_turns(t[i]) * lut.ready()


d_idx = cuda.to_device(idx)
d_t = cuda.to_device(turns)
d_out = cuda.device_array(idx.size, np.float32)
d_smooth = cuda.device_array(idx.size, np.float32)
for _ in range(2):
    gather[32, 128](d_out, d_idx, d_t, d_smooth)
np.testing.assert_array_equal(d_out.copy_to_host(), table[idx % 256])
np.testing.assert_allclose(d_smooth.copy_to_host(), np.sin(2.0 * np.pi * turns.astype(np.float64)), rtol=0,
                           atol=2e-4)
print("lut gpu ok")
