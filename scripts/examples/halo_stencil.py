# A 2-d heat stencil (Jacobi iteration) decomposed by rows over the ranks:
# each rank keeps its rows plus one halo row above and below, and before
# every step exchanges its edge rows with its neighbours (send/recv in one
# group). The result is checked against the same stencil on the whole grid
# in NumPy. Runs on any number of devices:
#
#   cuhost run --nccl halo_stencil.py                   # every GPU of this process
#   mpirun -n 2 cuhost run --nccl halo_stencil.py       # 2 ranks, a GPU each
#
# --ny/--nx/--steps size the problem; --no-check skips the NumPy reference
# (scripts/bench/stencil_scaling.py times large grids that way).
# cuhost-args: --nccl
# stdout: matches the single-domain stencil
import argparse
import time

import numpy as np
from numba import cuda
from cuhost import nccl

parser = argparse.ArgumentParser()
parser.add_argument("--ny", type=int, default=192, help="interior rows of the whole grid")
parser.add_argument("--nx", type=int, default=128, help="columns, boundary columns included")
parser.add_argument("--steps", type=int, default=60)
parser.add_argument("--no-check", action="store_true")
args = parser.parse_args()


@cuda.jit
def jacobi(cur, nxt):
    i, j = cuda.grid(2)  # i: local row, j: column
    if 1 <= i < cur.shape[0] - 1 and 1 <= j < cur.shape[1] - 1:
        nxt[i, j] = 0.25 * (cur[i - 1, j] + cur[i + 1, j] + cur[i, j - 1] + cur[i, j + 1])


def initial_grid(ny, nx):
    """The whole grid with its fixed boundary: a hot top edge, a warm left edge."""
    g = np.zeros((ny + 2, nx))
    g[0, :] = 1.0
    g[:, 0] = 0.5
    g[1:-1, 1:-1] = np.random.default_rng(0).random((ny, nx - 2)) * 0.1
    return g


def reference(g, steps):
    g = g.copy()
    for _ in range(steps):
        g[1:-1, 1:-1] = 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
    return g


class Domain:
    """The rows one rank owns: global rows lo..hi-1, held with a halo row
    (or the fixed boundary) above and below, twice (current and next)."""

    def __init__(self, comm, world, grid):
        self.comm = comm
        bounds = np.linspace(1, args.ny + 1, world + 1).astype(int)
        self.lo, self.hi = bounds[comm.rank], bounds[comm.rank + 1]
        self.up = comm.rank - 1 if comm.rank > 0 else None
        self.down = comm.rank + 1 if comm.rank < world - 1 else None
        with cuda.gpus[comm.device]:
            local = grid[self.lo - 1:self.hi + 1]
            self.cur, self.nxt = cuda.to_device(local), cuda.to_device(local)

    def exchange(self):
        c, a = self.comm, self.cur
        if self.up is not None:
            c.send(a[1], peer=self.up)
            c.recv(a[0], peer=self.up)
        if self.down is not None:
            c.send(a[a.shape[0] - 2], peer=self.down)
            c.recv(a[a.shape[0] - 1], peer=self.down)

    def step(self):
        rows, cols = self.cur.shape
        jacobi[((rows + 15) // 16, (cols + 15) // 16), (16, 16)](self.cur, self.nxt)
        self.cur, self.nxt = self.nxt, self.cur


comms = nccl.communicators()  # one per device of this process (one per process under MPI)
world = comms[0].size
grid = initial_grid(args.ny, args.nx)
domains = [Domain(c, world, grid) for c in comms]

started = time.perf_counter()
for _ in range(args.steps):
    with nccl.group():
        for d in domains:
            with cuda.gpus[d.comm.device]:
                d.exchange()
    for d in domains:
        with cuda.gpus[d.comm.device]:
            d.step()
for d in domains:
    with cuda.gpus[d.comm.device]:
        cuda.synchronize()
elapsed = time.perf_counter() - started

expected = None if args.no_check else reference(grid, args.steps)
for d in domains:
    with cuda.gpus[d.comm.device]:
        rows = d.cur.copy_to_host()[1:-1]
    if expected is not None:
        np.testing.assert_allclose(rows, expected[d.lo:d.hi], rtol=1e-12, atol=1e-14)
    print("rank %d of %d (device %d): rows %d..%d%s" % (d.comm.rank, world, d.comm.device, d.lo, d.hi - 1,
                                                        "" if expected is None else " match the reference"))
cells = args.ny * (args.nx - 2) * args.steps
print("%d x %d grid, %d steps on %d rank(s): %.1f ms, %.1f Mcell/s per rank%s" % (
    args.ny, args.nx, args.steps, world, elapsed * 1e3, cells / world / elapsed / 1e6,
    "" if expected is None else "; matches the single-domain stencil"))
