# The kernels scripts/bench/aot_gpu.sh exports for its C++ benchmark
# (aot_launch.cu): `step` is raw/graphs.cu's chain kernel, and `chain` a
# cuhost.graph capture of 100 dependent launches of it on `x` with factor
# `a` (globals, so both are parameters the host binds).
import numpy as np
from numba import cuda
from cuhost import graph


@cuda.jit
def step(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a + 1.0


n = 256
x = cuda.to_device(np.zeros(n, np.float32))
a = np.float32(0.5)
s = cuda.stream()
with graph.capture(s) as chain:
    for _ in range(100):
        step[1, n, s](x, a)
chain.launch()
s.synchronize()
np.testing.assert_allclose(x.copy_to_host(), 2.0, rtol=1e-5)
