# A time-stepping loop as a CUDA graph: the kernels of one step (a 1-D heat
# stencil and a copy back) are captured once from a stream, then the whole
# step is launched 200 times with one call each, and the same graph is
# pointed at a second rod (Graph.update). Checked against NumPy.
# stdout: graph steps ok
import numpy as np
from numba import cuda

from cuhost import graph

N = 4096
TPB = 128
BLOCKS = (N + TPB - 1) // TPB


@cuda.jit
def heat(u, out, alpha):
    i = cuda.grid(1)
    if 0 < i < u.size - 1:
        out[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1])
    elif i < u.size:
        out[i] = u[i]


def numpy_steps(u, alpha, steps):
    u = u.copy()
    for _ in range(steps):
        nxt = u.copy()
        nxt[1:-1] = u[1:-1] + alpha * (u[:-2] - 2.0 * u[1:-1] + u[2:])
        u = nxt
    return u


rng = np.random.default_rng(5)
rod = rng.random(N)
u, tmp = cuda.to_device(rod), cuda.device_array(N)
s = cuda.stream()
with graph.capture(s) as step:
    heat[BLOCKS, TPB, s](u, tmp, 0.25)
    u.copy_to_device(tmp, stream=s)
for _ in range(200):
    step.launch()
s.synchronize()
np.testing.assert_allclose(u.copy_to_host(), numpy_steps(rod, 0.25, 200), rtol=1e-12)

# The same step on another rod: re-point the stencil and the copy by capturing
# the same sequence again and updating the graph.
rod2 = rng.random(N)
u2, tmp2 = cuda.to_device(rod2), cuda.device_array(N)
with graph.capture(s) as step2:
    heat[BLOCKS, TPB, s](u2, tmp2, 0.1)
    u2.copy_to_device(tmp2, stream=s)
step.update(step2)
for _ in range(50):
    step.launch()
s.synchronize()
np.testing.assert_allclose(u2.copy_to_host(), numpy_steps(rod2, 0.1, 50), rtol=1e-12)
print("graph steps ok")
