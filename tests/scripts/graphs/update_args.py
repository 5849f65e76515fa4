# Changing what a captured graph computes without capturing it again:
# GraphKernelNode.set_args re-points one captured launch at other arrays (same
# kernel, same argument types; optionally another grid, block or shared
# memory size), and Graph.update takes every argument of a graph captured
# from the same sequence of launches and copies. Checked against NumPy.
# stdout: update args ok
import warnings

import numpy as np
from numba import cuda

from cuhost import graph

warnings.filterwarnings("ignore", message="Grid size")  # small grids on purpose

rng = np.random.default_rng(7)
N = 500
TPB = 64
BLOCKS = (N + TPB - 1) // TPB


@cuda.jit
def scale_add(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def negate(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = -x[i]


@cuda.jit
def fill_dyn(out, value):
    buf = cuda.shared.array(0, np.float32)
    t = cuda.threadIdx.x
    buf[t] = value
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < out.size:
        out[i] = buf[cuda.blockDim.x - 1 - t]


def device(a):
    return cuda.to_device(a)


def expect(fn, cls, *fragments):
    try:
        fn()
    except cls as e:
        for f in fragments:
            assert f in str(e), (f, str(e))
        return
    raise AssertionError("no %s" % cls.__name__)


xs = [rng.standard_normal(N).astype(np.float32) for _ in range(3)]
ys = [rng.standard_normal(N).astype(np.float32) for _ in range(3)]
dx = [device(v) for v in xs]
dy = [device(v) for v in ys]
outs = [cuda.device_array(N, np.float32) for _ in range(3)]
s = cuda.stream()

with graph.capture(s) as g:
    scale_add[BLOCKS, TPB, s](np.float32(2.0), dx[0], dy[0], outs[0])
    negate[BLOCKS, TPB, s](outs[0])
g.launch()
s.synchronize()
np.testing.assert_allclose(outs[0].copy_to_host(), -(2 * xs[0] + ys[0]), rtol=1e-5, atol=1e-6)  # float32 with fma on a GPU

# Re-point the first launch at other arrays and another scalar.
node = g.kernels[0]
node.set_args(np.float32(-1.5), dx[1], dy[1], outs[1])
assert node.args[1] is dx[1]
g.launch()
s.synchronize()
np.testing.assert_allclose(outs[1].copy_to_host(), -1.5 * xs[1] + ys[1], rtol=1e-5, atol=1e-6)  # float32 with fma on a GPU
# The second launch still negates outs[0] (negated back).
np.testing.assert_allclose(outs[0].copy_to_host(), 2 * xs[0] + ys[0], rtol=1e-5, atol=1e-6)  # float32 with fma on a GPU
g.kernels[1].set_args(outs[1])
g.launch()
s.synchronize()
np.testing.assert_allclose(outs[1].copy_to_host(), -(-1.5 * xs[1] + ys[1]), rtol=1e-5, atol=1e-6)  # float32 with fma on a GPU

# A shorter array and a smaller grid: the captured kernel takes any arrays of its types.
half = N // 2
short_x, short_y = device(xs[2][:half]), device(ys[2][:half])
short_out = cuda.device_array(half, np.float32)
node.set_args(np.float32(3.0), short_x, short_y, short_out, griddim=(half + TPB - 1) // TPB)
assert node.griddim == ((half + TPB - 1) // TPB, 1, 1)
g.kernels[1].set_args(short_out)
g.launch()
s.synchronize()
np.testing.assert_allclose(short_out.copy_to_host(), -(3 * xs[2][:half] + ys[2][:half]), rtol=1e-5, atol=1e-6)  # float32 with fma on a GPU

# Arguments of other types would select another compiled kernel: refused.
expect(lambda: node.set_args(np.float32(1.0), device(xs[0].astype(np.float64)), dy[0], outs[0]), TypeError,
       "set_args: arguments of types (float32, array(float64, 1d, C), array(float32, 1d, C), array(float32, 1d, C))"
       " select another specialization of kernel 'scale_add'")
expect(lambda: node.set_args(np.float32(1.0), xs[0], dy[0], outs[0]), graph.GraphCaptureError,
       "set_args: argument 1 of kernel 'scale_add' is a host NumPy array")
expect(lambda: node.set_args(np.float32(1.0), dx[0], dy[0], "x"), Exception,
       "cannot determine the kernel type of argument 3 of kernel 'scale_add' (a str)")
expect(lambda: node.set_args(1.0, dx[0], dy[0], outs[0], colour=1), TypeError,
       "set_args() got an unexpected keyword argument 'colour'")
# The same check and error as a launch (numba-cuda's launch gets the driver's CudaAPIError).
expect(lambda: node.set_args(np.float32(1.0), dx[0], dy[0], outs[0], blockdim=4096), cuda.CudaAPIError, "4096",
       "exceeds the limit of 1024 threads per block")

# Dynamic shared memory and block size change together.
filled = cuda.device_array(N, np.float32)
with graph.capture(s) as gf:
    fill_dyn[BLOCKS, TPB, s, TPB * 4](filled, np.float32(5.0))
gf.launch()
s.synchronize()
assert np.array_equal(filled.copy_to_host(), np.full(N, 5.0, np.float32))
gf.kernels[0].set_args(filled, np.float32(7.0), blockdim=128, griddim=(N + 127) // 128, sharedmem=128 * 4)
assert gf.kernels[0].blockdim == (128, 1, 1) and gf.kernels[0].sharedmem == 512
gf.launch()
s.synchronize()
assert np.array_equal(filled.copy_to_host(), np.full(N, 7.0, np.float32))

# Graph.update: capture the same sequence with other arrays, take its arguments.
with graph.capture(s) as g2:
    scale_add[BLOCKS, TPB, s](np.float32(0.5), dx[2], dy[2], outs[2])
    negate[BLOCKS, TPB, s](outs[2])
g.update(g2)
assert g.kernels[0].args[1] is dx[2] and g.kernels[0].griddim == (BLOCKS, 1, 1)
g.launch()
s.synchronize()
np.testing.assert_allclose(outs[2].copy_to_host(), -(0.5 * xs[2] + ys[2]), rtol=1e-5, atol=1e-6)  # float32 with fma on a GPU

# Other sequences are refused, naming the first difference.
with graph.capture(s) as g3:
    negate[BLOCKS, TPB, s](outs[2])
expect(lambda: g.update(g3), ValueError, "graph update: the graph has 2 captured operations, the new one 1")
with graph.capture(s) as g4:
    negate[BLOCKS, TPB, s](outs[2])
    negate[BLOCKS, TPB, s](outs[2])
expect(lambda: g.update(g4), ValueError,
       "graph update: operation 0 is a launch of kernel 'scale_add' in the graph and a launch of kernel 'negate' "
       "in the new one")
with graph.capture(s) as g5:
    negate[BLOCKS, TPB, s](outs[2])
    outs[1].copy_to_device(outs[2], stream=s)
expect(lambda: g4.update(g5), ValueError,
       "operation 1 is a launch of kernel 'negate' in the graph and a device-to-device copy in the new one")
g.update(g)  # itself: nothing changes
print("update args ok")
