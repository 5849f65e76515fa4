# A graph launched on another stream than the one it was captured on is
# ordered against other streams' work on the arrays it touches, as the eager
# launches and copies it replays are: cuhost's streams do not wait for each
# other, so without that a copy right after a replay read the array before
# the graph's slow kernel wrote it, and a graph's copy read an array before
# another stream's kernel finished writing it. The kernels below run for
# milliseconds on a GPU so that a missing wait shows as a wrong result.
# stdout: replay ordering ok
import warnings

import numpy as np
from numba import cuda

from cuhost import graph

warnings.filterwarnings("ignore", message="Grid size")  # small grids on purpose
N = 4096
ITERS = 2_000_000 if cuda.backend() == "cuda" else 200


@cuda.jit
def slow_add(x, amount, iters):
    i = cuda.grid(1)
    if i < x.size:
        acc = x[i]
        for _ in range(iters):  # a dependent chain: milliseconds on a GPU
            acc = acc * 0.9999999 + 1e-7
        if acc == -12345.0:  # never true for these inputs; keeps the chain
            x[i] = 0.0
        x[i] += amount


@cuda.jit
def add(x, amount):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += amount


rng = np.random.default_rng(11)
x0 = rng.standard_normal(N)
x = cuda.to_device(x0)
y = cuda.to_device(np.zeros(N))
s, other, third = cuda.stream(), cuda.stream(), cuda.stream()

# 1. A kernel captured on s, replayed on `other`: the copy on the default
# stream and an eager launch on s come after it.
with graph.capture(s) as g:
    slow_add[N // 128, 128, s](x, 1.0, ITERS)
s.synchronize()
expected = x0  # a capture records the launch; it runs at the graph's launches
got = x.copy_to_host()
assert np.array_equal(got, expected), np.abs(got - expected).max()
g.launch(other)
got = x.copy_to_host()  # default stream: waits for the replay on `other`
expected = expected + 1.0
assert np.array_equal(got, expected), "copy overtook the replay: %d of %d old" % ((got != expected).sum(), N)
g.launch(other)
add[N // 128, 128, s](x, 2.0)  # on s: waits for the replay on `other`
s.synchronize()
expected = (expected + 1.0) + 2.0
got = x.copy_to_host()
assert np.array_equal(got, expected), "launch on s overtook the replay: %d of %d" % ((got != expected).sum(), N)

# 2. A device-to-device copy captured in a graph reads x after another
# stream's slow kernel wrote it.
with graph.capture(s) as copier:
    y.copy_to_device(x, stream=s)
s.synchronize()
slow_add[N // 128, 128, third](x, 5.0, ITERS)
copier.launch(other)
other.synchronize()
expected = expected + 5.0
got = y.copy_to_host()
assert np.array_equal(got, expected), "the graph's copy overtook the kernel: %d of %d" % ((got != expected).sum(), N)

# 3. New arguments (set_args): the replay is ordered on the new array.
z0 = rng.standard_normal(N)
z = cuda.to_device(z0)
slow_add[N // 128, 128, third](z, 1.0, ITERS)  # z being written on `third`
g.kernels[0].set_args(z, 10.0, ITERS)
g.launch(other)  # waits for `third`'s write of z, then adds 10
got = z.copy_to_host()
expected = (z0 + 1.0) + 10.0
assert np.array_equal(got, expected), "set_args: %d of %d" % ((got != expected).sum(), N)
print("replay ordering ok")
