# cuda.close() while device arrays are alive: the host owns the context, so
# close() waits for outstanding work and unloads the kernel modules (their
# teardown callbacks run), and nothing is lost: live arrays keep their data,
# streams stay usable, and later launches load their modules again and give
# right results. Both backends.
# stdout: close with live arrays ok
import numpy as np
from numba import cuda


@cuda.jit
def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


rng = np.random.default_rng(12)
x = rng.standard_normal(5000)
y = rng.standard_normal(5000)
stream = cuda.stream()
d_x = cuda.to_device(x, stream=stream)
d_y = cuda.to_device(y, stream=stream)
d_out = cuda.device_array_like(d_x, stream=stream)
axpy[40, 128, stream](d_out, 3.0, d_x, d_y)   # still queued when close() is called
cuda.close()
np.testing.assert_allclose(d_out.copy_to_host(), 3.0 * x + y, rtol=1e-15, atol=1e-14)  # fma on a GPU
np.testing.assert_array_equal(d_x.copy_to_host(), x)
for round_ in range(3):
    axpy[40, 128, stream](d_out, float(round_), d_x, d_y)
    stream.synchronize()
    np.testing.assert_allclose(d_out.copy_to_host(), round_ * x + y, rtol=1e-15, atol=1e-14)
    cuda.close()
print("close with live arrays ok")
