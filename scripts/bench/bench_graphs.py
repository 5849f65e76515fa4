# Graphs: a chain of 100 small dependent kernels on one stream, launched one
# by one and replayed as a captured graph (cuhost.graph), per kernel. The
# same script runs under python3 with numba-cuda, which has no graph API: it
# gives the eager row only. raw/graphs.cu is the CUDA C++ version (nvcc rows),
# bench_graphs_torch.py PyTorch's CUDA graphs.
import time
import warnings

from _harness import bench, np
from numba import cuda

try:
    from cuhost import graph
except ImportError:  # numba-cuda
    graph = None

warnings.filterwarnings("ignore", message="Grid size")  # one small block per kernel, on purpose
CHAIN = 100
N = 256
CHAINS = 200 if bench.backend_name() == "cuda" else 20
ROUNDS = 5


@cuda.jit
def step(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a + 1.0


x = cuda.to_device(np.zeros(N, np.float32))
s = cuda.stream()
launcher = step[1, N, s]
a = np.float32(0.5)


def eager():
    for _ in range(CHAIN):
        launcher(x, a)


def per_kernel(fn, name):
    """Microseconds per kernel: CHAINS chains back to back, then one wait."""
    for _ in range(3):
        fn()
    s.synchronize()
    samples = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        for _ in range(CHAINS):
            fn()
        s.synchronize()
        samples.append((time.perf_counter() - t0) / (CHAINS * CHAIN) * 1e6)
    return bench._summarize(name, samples, unit="us")


bench.report(per_kernel(eager, "graph_chain100_eager"))
if graph is not None:
    with graph.capture(s) as g:
        eager()
    assert len(g.kernels) == CHAIN
    bench.report(per_kernel(g.launch, "graph_chain100_replay"))
# x = x / 2 + 1 converges to 2 (kernels do not run over the null driver).
if bench.kernels_run():
    np.testing.assert_allclose(x.copy_to_host(), np.full(N, 2.0, np.float32), rtol=1e-6)
