# The CUDA backend's host side, run in CI through the null driver
# (null_cuda.cpp: every driver call succeeds, nothing runs on a device):
# kernels compile for sm_90 through NVPTX and nvJitLink and load; every kind
# of argument is typed, packed and launched; host arrays go through the
# staged copy in and back; bad arguments raise the exact errors. Kernels do
# not run, so results are checked only where the host path alone decides
# them: host arrays come back exactly as they went in.
# stdout: null driver launch paths ok
import numpy as np
from numba import cuda

assert cuda.backend() == "cuda", cuda.backend()
assert cuda.get_current_device().name == "cuhost null driver"
rng = np.random.default_rng(11)


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def mixed(t, n, flag, c, m, out):
    i = cuda.grid(1)
    if i < out.size and flag:
        out[i] = t[0] + n + c.real + m[0, 0]


@cuda.jit(debug=True, opt=False)
def checked(x, out):
    i = cuda.grid(1)
    out[i] = x[i] * 2


n = 1000
x = cuda.to_device(rng.random(n, dtype=np.float32))
y = cuda.to_device(rng.random(n, dtype=np.float32))
o = cuda.device_array(n, np.float32)
for a in (np.float32(2.5), 2.5, 3, True):
    saxpy[4, 256](a, x, y, o)
    saxpy[(4,), (256,), cuda.stream()](a, x, y, o)
assert len(saxpy.signatures) == 4, saxpy.signatures  # float32, float64, int64, bool scalars

# Device arrays round-trip through the null driver's memory (host memory).
host = rng.standard_normal((40, 30))
d = cuda.to_device(host)
np.testing.assert_array_equal(d.copy_to_host(), host)
np.testing.assert_array_equal(d[::3, 2:20:4].copy_to_host(), host[::3, 2:20:4])

# Host arrays, contiguous or not, are copied in and back: unchanged here.
for make in (lambda: rng.random(n, dtype=np.float32),
             lambda: rng.random(2 * n, dtype=np.float32)[::2],
             lambda: rng.random(n, dtype=np.float64).astype(np.float32)[::-1]):
    hx, hy, ho = make(), make(), make()
    before = ho.copy()
    for _ in range(3):  # the second launch on takes the pinned staging block
        saxpy[4, 256](np.float32(2), hx, hy, ho)
    np.testing.assert_array_equal(ho, before)

# Objects exposing only __cuda_array_interface__ (CuPy, PyTorch) pass with no copy.


class CaiArray:
    def __init__(self, dev):
        self.__cuda_array_interface__ = dict(dev.__cuda_array_interface__)


saxpy[4, 256](np.float32(2), CaiArray(x), CaiArray(y), CaiArray(o))

# Tuples, integers, booleans, complex numbers and 2-d arrays in one launch.
m = cuda.to_device(rng.random((3, 4)))
mixed[8, 128]((1.5, 2.5), np.int32(7), True, 1 + 2j, m, cuda.device_array(n))

# A checked kernel loads with its error record; nothing failed, nothing is raised.
checked[4, 256](x, o)
cuda.synchronize()

# Errors the host path decides.
try:
    saxpy[4, 256](np.float32(2), x, y)
    raise AssertionError("a missing argument was accepted")
except TypeError as e:
    assert "launch_host_paths.py:18" in str(e), str(e)
    assert str(e).endswith("saxpy() takes 4 positional arguments but 3 were given"), str(e)
try:
    saxpy[4, 256]("s", x, y, o)
    raise AssertionError("a str argument was accepted")
except cuda.TypingError as e:
    assert str(e) == "cannot determine the kernel type of argument 0 of kernel 'saxpy' (a str)", str(e)
try:
    saxpy[4, 2048](np.float32(2), x, y, o)
    raise AssertionError("an oversized block was accepted")
except cuda.CudaAPIError as e:
    assert str(e) == ("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE: a block of 2048 x 1 x 1 = 2048 threads exceeds the limit of 1024 threads per block"), str(e)
print("null driver launch paths ok")
