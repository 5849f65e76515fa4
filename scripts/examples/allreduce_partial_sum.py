# Data parallelism: every rank sums its slice of a large array with a kernel
# (a block reduction in shared memory, one atomic per block), then one
# all-reduce gives every rank the total. Runs on any number of devices:
#
#   cuhost run --nccl allreduce_partial_sum.py             # every GPU of this process
#   mpirun -n 4 cuhost run --nccl allreduce_partial_sum.py  # 4 ranks, a GPU each
#
# (on the CPU backend: one rank per process, MPI between processes).
# cuhost-args: --nccl
# stdout: sum of 4194304 elements matches NumPy
import argparse
import time

import numpy as np
from numba import cuda
from cuhost import nccl

parser = argparse.ArgumentParser()
parser.add_argument("--n", type=int, default=1 << 22, help="elements in the whole array")
args = parser.parse_args()

THREADS = 256


@cuda.jit
def partial_sum(x, total):
    shared = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    acc = 0.0
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):  # grid-stride loop
        acc += x[i]
    shared[t] = acc
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if t < step:
            shared[t] += shared[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        cuda.atomic.add(total, 0, shared[0])


def element_values(start, stop):
    """The global array's elements start..stop-1 (each rank makes only its own)."""
    i = np.arange(start, stop, dtype=np.float64)
    return np.sin(i * 1e-3) + 1.0 / (1.0 + i)


comms = nccl.communicators()  # one per device of this process (one per process under MPI)
world = comms[0].size
bounds = np.linspace(0, args.n, world + 1).astype(np.int64)

started = time.perf_counter()
totals = {}
for c in comms:
    with cuda.gpus[c.device]:
        x = cuda.to_device(element_values(bounds[c.rank], bounds[c.rank + 1]))
        totals[c.rank] = cuda.to_device(np.zeros(1))
        partial_sum[min(1024, (x.size + THREADS - 1) // THREADS), THREADS](x, totals[c.rank])
with nccl.group():  # one thread driving several GPUs issues their collectives together
    for c in comms:
        with cuda.gpus[c.device]:
            c.all_reduce(totals[c.rank])
for c in comms:
    with cuda.gpus[c.device]:
        total = totals[c.rank].copy_to_host()[0]
    expected = element_values(0, args.n).sum()
    assert abs(total - expected) <= 1e-9 * abs(expected), (total, expected)
    print("rank %d of %d (device %d): %d elements here, total %.9f" % (
        c.rank, world, c.device, bounds[c.rank + 1] - bounds[c.rank], total))
print("sum of %d elements matches NumPy (%.1f ms)" % (args.n, (time.perf_counter() - started) * 1e3))
