# Kernels calling foreign device functions (CUDA C++ linked through
# cuda.declare_device) are captured and replayed like any launch, their
# first launch (which compiles and loads them) inside the capture included.
# stdout: capture foreign ok
import os
import warnings

import numpy as np
from numba import cuda

from cuhost import graph

warnings.filterwarnings("ignore", message="Grid size")  # small grids on purpose

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ffi", "cu", "ops.cu")
hypot2 = cuda.declare_device("ffi_hypot2", "float64(float64, float64)", link=CU, abi="c")
scale_inplace = cuda.declare_device("ffi_scale_inplace", "void(CPointer(float32), int32, float32)", link=CU,
                                    abi="c")


@cuda.jit
def radius2(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = hypot2(x[i], y[i])


@cuda.jit
def scale_rows(m, k):
    r = cuda.grid(1)
    if r < m.shape[0]:
        scale_inplace(cuda.ffi.from_buffer(m[r]), m.shape[1], k)


rng = np.random.default_rng(3)
x_h, y_h = rng.standard_normal(300), rng.standard_normal(300)
m_h = rng.standard_normal((20, 16)).astype(np.float32)
x, y, out = cuda.to_device(x_h), cuda.to_device(y_h), cuda.device_array(300)
m = cuda.to_device(m_h)
s = cuda.stream()
with graph.capture(s) as g:  # both kernels compile and load here, inside the capture
    radius2[3, 128, s](x, y, out)
    scale_rows[1, 32, s](m, np.float32(0.5))
assert [k.name for k in g.kernels] == ["radius2", "scale_rows"]
for step in range(3):
    g.launch()
    s.synchronize()
    np.testing.assert_allclose(out.copy_to_host(), x_h * x_h + y_h * y_h, rtol=1e-12)
    np.testing.assert_allclose(m.copy_to_host(), m_h * np.float32(0.5) ** (step + 1), rtol=1e-6)
print("capture foreign ok")
