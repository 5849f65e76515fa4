# Running out of device memory or of pinned host memory is a CudaAPIError
# that names the request's size, on both backends, and the process goes on:
# later allocations, copies and launches work and give right results.
# stdout: out of memory ok
# sanitizer-expects: CUDA_ERROR_OUT_OF_MEMORY
import numpy as np
from numba import cuda
from numba.cuda.cudadrv.driver import CudaAPIError

HUGE = 1 << 50  # 1 PiB: beyond any device and beyond the host address space (fails at once)

for what, allocate in [("device", lambda: cuda.device_array(HUGE, dtype=np.uint8)),
                       ("pinned", lambda: cuda.pinned_array(HUGE, dtype=np.uint8)),
                       ("device, 2-d", lambda: cuda.device_array((1 << 23, 1 << 23), dtype=np.float64))]:
    try:
        allocate()
    except CudaAPIError as e:
        size = HUGE if "2-d" not in what else (1 << 46) * 8
        assert str(size) in str(e), (what, str(e))
        assert "OUT_OF_MEMORY" in str(e) or "out of memory" in str(e), (what, str(e))
    else:
        raise AssertionError("allocating %s memory of %d bytes did not fail" % (what, HUGE))


@cuda.jit
def twice_plus(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = 2 * x[i] + 1


rng = np.random.default_rng(5)
x = rng.standard_normal(4099)
d_x = cuda.to_device(x)
d_out = cuda.device_array_like(d_x)
twice_plus[(x.size + 127) // 128, 128](d_out, d_x)
np.testing.assert_array_equal(d_out.copy_to_host(), 2 * x + 1)
p = cuda.pinned_array(x.size, dtype=np.float64)
d_out.copy_to_host(p)
np.testing.assert_array_equal(p, 2 * x + 1)
print("out of memory ok")
