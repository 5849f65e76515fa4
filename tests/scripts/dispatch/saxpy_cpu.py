# saxpy on random data, checked against NumPy: device arrays, host arrays
# (copied in and back on a GPU, passed directly on the CPU), scalars of every
# Python kind converted to the kernel's types, and forall.
# stdout: saxpy ok
import numpy as np
from numba import cuda


@cuda.jit
def saxpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


rng = np.random.default_rng(7)
n = 1000
x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
a = np.float32(2.5)
expected = a * x + y

out = np.zeros(n, np.float32)
saxpy[(n + 127) // 128, 128](out, a, x, y)
np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)  # a GPU's fma rounds once

d_out = cuda.device_array(n, np.float32)
d_x, d_y = cuda.to_device(x), cuda.to_device(y)
saxpy[(n + 255) // 256, 256](d_out, a, d_x, d_y)
np.testing.assert_allclose(d_out.copy_to_host(), expected, rtol=1e-6, atol=1e-6)

# A Python float for `a` is a float64 specialization; a new fingerprint, a new plan.
out2 = np.zeros(n, np.float32)
saxpy[8, 128](out2, 2.5, x, y)
np.testing.assert_allclose(out2, (2.5 * x.astype(np.float64) + y).astype(np.float32), rtol=1e-6, atol=1e-6)
assert len(saxpy.signatures) == 2, saxpy.signatures

# forall covers n threads whatever the block size it picks.
out3 = np.zeros(n, np.float32)
saxpy.forall(n)(out3, a, x, y)
np.testing.assert_allclose(out3, expected, rtol=1e-6, atol=1e-6)

# Repeated launches reuse the launcher and plan; results stay right.
for _ in range(3):
    out[:] = 0
    saxpy[8, 128](out, a, x, y)
np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)
print("saxpy ok")
