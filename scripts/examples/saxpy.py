# saxpy on random data, checked against NumPy: the first kernel most people
# write. Runs on the GPU when there is one, else on cuhost's CPU backend.
# stdout: saxpy ok
import numpy as np
from numba import cuda


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


n = 1 << 20
rng = np.random.default_rng(2024)
x = rng.random(n, dtype=np.float32)
y = rng.random(n, dtype=np.float32)
d_x, d_y = cuda.to_device(x), cuda.to_device(y)
d_out = cuda.device_array_like(x)
threads = 256
saxpy[(n + threads - 1) // threads, threads](np.float32(2.5), d_x, d_y, d_out)
out = d_out.copy_to_host()
np.testing.assert_allclose(out, np.float32(2.5) * x + y, rtol=1e-6)
print("backend:", cuda.backend(), "| n =", n, "| saxpy ok")
