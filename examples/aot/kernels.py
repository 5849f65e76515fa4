# The kernels examples/aot ships without Python: `cuhost export` runs this
# script, then writes what it names (see CMakeLists.txt) into an export
# folder that aot_example.cpp loads with cuhost::aot.
#   noise   calls the philox plugin's foreign function (plugin .cu code)
#   center  a cooperative kernel: grid sync between a sum and its use
#   step    a cuhost.graph capture of scale + axpy; x, y, out and alpha are
#           globals, so they become parameters the host binds by name
import numpy as np
from numba import cuda
from cuhost import graph
from cuhost.plugins import philox


@cuda.jit
def noise(key, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = philox.uniform(key, i)


@cuda.jit
def center(x, total):
    # Subtracts the mean of x from every element: every block adds its part
    # of the sum, the grid synchronizes, then every thread reads the sum.
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(total, 0, x[i])
    g.sync()
    if i < x.size:
        x[i] -= total[0] / x.size


@cuda.jit
def scale(x, alpha):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= alpha


@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


n = 1000
threads = 128
blocks = (n + threads - 1) // threads

# Run each kernel once here, checked against NumPy, so the export holds
# what the script proved.
key = np.uint64(0x0123456789ABCDEF)
r = cuda.device_array(n, np.float32)
noise[blocks, threads](key, r)
u = r.copy_to_host()
assert 0.0 <= u.min() and u.max() < 1.0

host = np.arange(n, dtype=np.float32)
xc = cuda.to_device(host)
total = cuda.to_device(np.zeros(1, np.float32))
center[blocks, threads](xc, total)
np.testing.assert_allclose(xc.copy_to_host(), host - host.mean(), rtol=1e-5, atol=1e-3)

x = cuda.to_device(np.ones(n, np.float32))
y = cuda.to_device(np.full(n, 2.0, np.float32))
out = cuda.device_array(n, np.float32)
alpha = np.float32(3.0)
s = cuda.stream()
with graph.capture(s) as step:
    scale[blocks, threads, s](x, alpha)
    axpy[blocks, threads, s](np.float32(0.5), x, y, out)
step.launch()
s.synchronize()
np.testing.assert_allclose(out.copy_to_host(), 0.5 * 3.0 + 2.0)
