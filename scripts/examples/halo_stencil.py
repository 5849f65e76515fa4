# A 2-d heat stencil (Jacobi iteration) decomposed by rows over the ranks:
# each rank keeps its rows plus one halo row above and below. Each step
# overlaps the halo exchange with the interior update, as production stencil
# codes do: on a communication stream, the two edge rows are updated first
# and sent to the neighbours (send/recv in one group), while the interior
# rows are updated on a compute stream. The two streams share arrays, and
# cuhost orders their work by the bytes each touches (docs/MULTI_GPU.md):
# the interior update waits for the edge update, not for the exchange. The
# result is checked against the same stencil on the whole grid in NumPy.
# Runs on any number of devices:
#
#   cuhost run --nccl halo_stencil.py                   # every GPU of this process
#   mpirun -n 2 cuhost run --nccl halo_stencil.py       # 2 ranks, a GPU each
#
# --ny/--nx/--steps size the problem; --no-check skips the NumPy reference
# (scripts/bench/stencil_scaling.py times large grids that way);
# --no-overlap runs exchange and update one after the other on one stream.
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
parser.add_argument("--steps", type=int, default=60, help="at least 1")
parser.add_argument("--no-check", action="store_true")
parser.add_argument("--no-overlap", action="store_true", help="exchange, then update, on one stream")
args = parser.parse_args()


# Threads run along the columns (x), so a warp reads consecutive elements of a row.
@cuda.jit
def jacobi_rows(cur, out, first):
    """Rows first, first + 1, ... of the next grid into `out` (a view of them)."""
    j, k = cuda.grid(2)
    if k < out.shape[0] and 1 <= j < cur.shape[1] - 1:
        i = first + k
        out[k, j] = 0.25 * (cur[i - 1, j] + cur[i + 1, j] + cur[i, j - 1] + cur[i, j + 1])


@cuda.jit
def jacobi_edges(cur, top, bottom):
    """The first and last owned rows (local rows 1 and m) into 1-row views."""
    j, e = cuda.grid(2)
    if 1 <= j < cur.shape[1] - 1:
        last = cur.shape[0] - 2
        if e == 0:
            top[0, j] = 0.25 * (cur[0, j] + cur[2, j] + cur[1, j - 1] + cur[1, j + 1])
        elif e == 1:
            bottom[0, j] = 0.25 * (cur[last - 1, j] + cur[last + 1, j] + cur[last, j - 1] + cur[last, j + 1])


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
    (or the fixed boundary) above and below, twice (current and next), with
    the views of them each step uses (made once), and the rank's two streams."""

    def __init__(self, comm, world, grid):
        self.comm = comm
        bounds = np.linspace(1, args.ny + 1, world + 1).astype(int)
        self.lo, self.hi = bounds[comm.rank], bounds[comm.rank + 1]
        self.up = comm.rank - 1 if comm.rank > 0 else None
        self.down = comm.rank + 1 if comm.rank < world - 1 else None
        with cuda.gpus[comm.device]:
            local = grid[self.lo - 1:self.hi + 1]
            grids = cuda.to_device(local), cuda.to_device(local)
            self.edge_stream = cuda.stream()  # edge rows and the exchange
            self.interior_stream = self.edge_stream if args.no_overlap else cuda.stream()
        m = local.shape[0] - 2  # owned rows: local rows 1..m
        self.views = [{"all": a, "top": a[1:2], "bottom": a[m:m + 1], "interior": a[2:m] if m > 2 else None,
                       "first": a[1], "last": a[m], "halo_up": a[0], "halo_down": a[m + 1]} for a in grids]
        self.now = 0  # index of the current grid
        columns = (local.shape[1] + 127) // 128
        self.edge_grid = (columns, 2), (128, 1)
        self.interior_grid = (columns, (max(m - 2, 1) + 3) // 4), (128, 4)

    @property
    def cur(self):
        return self.views[self.now]["all"]

    def update_edges(self):
        cur, nxt = self.views[self.now], self.views[1 - self.now]
        blocks, threads = self.edge_grid
        jacobi_edges[blocks, threads, self.edge_stream](cur["all"], nxt["top"], nxt["bottom"])

    def exchange(self):
        """Sends the new edge rows, receives the neighbours' into the halo rows."""
        c, nxt, s = self.comm, self.views[1 - self.now], self.edge_stream
        if self.up is not None:
            c.send(nxt["first"], peer=self.up, stream=s)
            c.recv(nxt["halo_up"], peer=self.up, stream=s)
        if self.down is not None:
            c.send(nxt["last"], peer=self.down, stream=s)
            c.recv(nxt["halo_down"], peer=self.down, stream=s)

    def update_interior(self):
        cur, nxt = self.views[self.now], self.views[1 - self.now]
        if nxt["interior"] is not None:
            blocks, threads = self.interior_grid
            jacobi_rows[blocks, threads, self.interior_stream](cur["all"], nxt["interior"], 2)

    def swap(self):
        self.now = 1 - self.now


comms = nccl.communicators()  # one per device of this process (one per process under MPI)
world = comms[0].size
grid = initial_grid(args.ny, args.nx)
domains = [Domain(c, world, grid) for c in comms]



def step():
    # select_device, not `with cuda.gpus[i]:`, in the loop: it costs less on
    # the host, which must stay ahead of the GPUs.
    for d in domains:
        cuda.select_device(d.comm.device)
        d.update_edges()
    with nccl.group():
        for d in domains:
            d.exchange()  # each communicator runs on its own device
    for d in domains:
        cuda.select_device(d.comm.device)
        d.update_interior()
        d.swap()


def wait_all():
    for d in domains:
        with cuda.gpus[d.comm.device]:
            cuda.synchronize()


# The first step also compiles the kernels and loads them on each device:
# the time per step is measured over the others.
step()
wait_all()
started = time.perf_counter()
for _ in range(args.steps - 1):
    step()
wait_all()
per_step = (time.perf_counter() - started) / max(args.steps - 1, 1)

expected = None if args.no_check else reference(grid, args.steps)
for d in domains:
    with cuda.gpus[d.comm.device]:
        rows = d.cur.copy_to_host()[1:-1]
    if expected is not None:
        np.testing.assert_allclose(rows, expected[d.lo:d.hi], rtol=1e-12, atol=1e-14)
    print("rank %d of %d (device %d): rows %d..%d%s" % (d.comm.rank, world, d.comm.device, d.lo, d.hi - 1,
                                                        "" if expected is None else " match the reference"))
cells = args.ny * (args.nx - 2)
print("%d x %d grid, %d steps on %d rank(s): %.3f ms per step, %.1f Mcell/s per rank%s" % (
    args.ny, args.nx, args.steps, world, per_step * 1e3, cells / world / per_step / 1e6,
    "" if expected is None else "; matches the single-domain stencil"))
