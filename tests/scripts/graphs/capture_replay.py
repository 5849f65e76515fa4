# cuhost.graph: a sequence of kernel launches and copies captured on a
# stream runs only when the graph is launched, every time it is launched, in
# order, on the capture stream or another one; results match NumPy.
# stdout: capture replay ok
import warnings

import numpy as np
from numba import cuda

from cuhost import graph

warnings.filterwarnings("ignore", message="Grid size")  # small grids on purpose

rng = np.random.default_rng(2024)
N = 1000
TPB = 128
BLOCKS = (N + TPB - 1) // TPB


@cuda.jit
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]


@cuda.jit
def square(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * x[i]


@cuda.jit
def block_sums(x, partial):
    buf = cuda.shared.array(TPB, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = buf[0]


x_h = rng.standard_normal(N)
y_h = rng.standard_normal(N)
x = cuda.to_device(x_h)
y = cuda.to_device(y_h)
z = cuda.device_array_like(y)
partial = cuda.device_array(BLOCKS)
pinned_in = cuda.pinned_array(N)
pinned_out = cuda.pinned_array(N)
pinned_in[:] = rng.standard_normal(N)
s = cuda.stream()

# The warm-up launch compiles outside the capture (a capture may compile too).
square[BLOCKS, TPB, s](z)
with graph.capture(s) as g:
    assert graph.is_capturing(s) and not graph.is_capturing()
    axpy[BLOCKS, TPB, s](2.0, x, y)          # y = 2x + y
    z.copy_to_device(y, stream=s)            # z = y (device to device)
    square[BLOCKS, TPB, s](z)                # z = z^2
    block_sums[BLOCKS, TPB, s](z, partial)
    x.copy_to_device(pinned_in, stream=s)    # x = pinned_in (page-locked host to device)
    z.copy_to_host(pinned_out, stream=s)     # pinned_out = z (device to page-locked host)
assert not graph.is_capturing(s)
assert isinstance(g, graph.Graph) and g.captured
assert len(g) == 6 and g.copy_count == 3 and len(g.kernels) == 3
assert [k.name for k in g.kernels] == ["axpy", "square", "block_sums"]
assert g.kernels[0].griddim == (BLOCKS, 1, 1) and g.kernels[0].blockdim == (TPB, 1, 1)
assert g.kernels[2].args[0] is z and g.kernels[2].kernel is block_sums
assert g.stream is s

# Nothing ran during the capture.
assert np.array_equal(y.copy_to_host(), y_h)
assert np.array_equal(x.copy_to_host(), x_h)

# Each launch runs the whole sequence again, on the current contents.
ref_x, ref_y = x_h.copy(), y_h.copy()
for step in range(3):
    g.launch()
    s.synchronize()
    ref_y = 2.0 * ref_x + ref_y
    ref_z = ref_y * ref_y
    ref_x = pinned_in.copy()
    np.testing.assert_allclose(y.copy_to_host(), ref_y, rtol=1e-12)
    np.testing.assert_allclose(pinned_out, ref_z, rtol=1e-12)
    np.testing.assert_allclose(x.copy_to_host(), ref_x, rtol=0)
    sums = np.array([ref_z[b * TPB:(b + 1) * TPB].sum() for b in range(BLOCKS)])
    np.testing.assert_allclose(partial.copy_to_host(), sums, rtol=1e-10)
    pinned_in[:] = rng.standard_normal(N)  # read by the next launch, not captured by value

# On another stream, and on the default stream.
other = cuda.stream()
g.launch(other)
other.synchronize()
ref_y = 2.0 * ref_x + ref_y
np.testing.assert_allclose(y.copy_to_host(), ref_y, rtol=1e-12)
g.launch(stream=cuda.default_stream())
cuda.synchronize()
ref_y = 2.0 * pinned_in + ref_y
np.testing.assert_allclose(y.copy_to_host(), ref_y, rtol=1e-12)

# Capturing the default stream (no stream named): launches without a stream go in.
a = cuda.to_device(np.arange(N, dtype=np.float64))
with graph.capture() as g2:
    square[BLOCKS, TPB](a)
    square.forall(N)(a)
assert len(g2.kernels) == 2 and g2.stream is None
assert np.array_equal(a.copy_to_host(), np.arange(N))
g2.launch()
cuda.synchronize()
squares = np.arange(N, dtype=np.float64) ** 2
assert np.array_equal(a.copy_to_host(), squares * squares)

# Work on other streams runs at once while a capture is going on.
b = cuda.to_device(np.full(N, 3.0))
with graph.capture(s) as g3:
    square[BLOCKS, TPB, other](b)             # not the captured stream: runs now
    square[BLOCKS, TPB, s](b)                 # captured
    other.synchronize()                       # another stream: allowed
    assert np.array_equal(b.copy_to_host(stream=other), np.full(N, 9.0))
g3.launch()
s.synchronize()
assert np.array_equal(b.copy_to_host(), np.full(N, 81.0))

# A graph keeps its arguments alive: the arrays can be dropped by the script.
def make_graph():
    c = cuda.to_device(np.full(N, 2.0))
    out = cuda.device_array(N)
    with graph.capture(s) as gg:
        square[BLOCKS, TPB, s](c)
        out.copy_to_device(c, stream=s)
    return gg, out


g4, out4 = make_graph()
g4.launch()
g4.launch()
s.synchronize()
assert np.array_equal(out4.copy_to_host(), np.full(N, 16.0))

# An empty capture gives an empty graph.
with graph.capture(s) as empty:
    pass
assert len(empty) == 0 and empty.kernels == ()
empty.launch()
print(repr(g))
print("capture replay ok")
