# Collectives between MPI ranks (`mpirun -n 2 cuhost run --nccl ...`), run by
# tests/mpi/run_mpi_test.py: on the CPU backend MPI carries them; on GPUs,
# NCCL bootstrapped over MPI. Every rank knows every rank's data (seeded by
# rank), so each checks its results against NumPy.
import os

import numpy as np
from numba import cuda
from cuhost import nccl

comm = nccl.communicator()
rank, size = comm.rank, comm.size
assert rank == int(os.environ["OMPI_COMM_WORLD_RANK"]), (rank, os.environ.get("OMPI_COMM_WORLD_RANK"))
assert size == int(os.environ["OMPI_COMM_WORLD_SIZE"])
assert comm.carrier == ("nccl" if cuda.backend() == "cuda" else "mpi"), comm.carrier
assert comm.device == cuda.get_current_device().id


def data(r, n, dtype=np.float64):
    rng = np.random.default_rng(100 + r)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-50, 50, n).astype(dtype)
    return rng.standard_normal(n).astype(dtype)


def everyone(n, dtype=np.float64):
    return [data(r, n, dtype) for r in range(size)]


def device(a):
    return cuda.to_device(a)


n = 1 << 12
for op, ref in (("sum", np.sum), ("max", np.max), ("min", np.min), ("prod", np.prod), ("avg", np.mean)):
    x = device(data(rank, n))
    comm.all_reduce(x, op=op)
    np.testing.assert_allclose(x.copy_to_host(), ref(np.stack(everyone(n)), axis=0), rtol=1e-12)

for dtype in (np.int32, np.int64, np.uint8, np.float32):
    x = device(data(rank, 100, dtype))
    out = cuda.device_array_like(x)
    comm.all_reduce(x, out)
    np.testing.assert_array_equal(out.copy_to_host(), np.sum(np.stack(everyone(100, dtype)), axis=0, dtype=dtype))
ints = device(data(rank, 10, np.int32))
comm.all_reduce(ints, op=nccl.AVG)  # integer average truncates, as NCCL's
np.testing.assert_array_equal(ints.copy_to_host(),
                              np.trunc(np.sum(np.stack(everyone(10, np.int32)), axis=0) / size).astype(np.int32))

# float16: reduced through float, one rounding (MPI has no 16-bit float type).
halves = [np.arange(-8, 8, dtype=np.float16) * (r + 1) for r in range(size)]
h = device(halves[rank])
comm.all_reduce(h)
np.testing.assert_array_equal(h.copy_to_host(), np.sum(np.stack(halves), axis=0, dtype=np.float16))
h = device(halves[rank])
comm.all_reduce(h, op="max")
np.testing.assert_array_equal(h.copy_to_host(), np.max(np.stack(halves), axis=0))

# reduce to root 1 (recv ignored elsewhere), broadcast from root 1.
x = device(data(rank, n))
out = cuda.device_array(n) if rank == 1 else None
comm.reduce(x, out, root=1)
if rank == 1:
    np.testing.assert_allclose(out.copy_to_host(), np.sum(np.stack(everyone(n)), axis=0))
b = device(data(rank, 33, np.int16))  # not an NCCL type: moved as bytes
comm.broadcast(b, root=1)
np.testing.assert_array_equal(b.copy_to_host(), data(1, 33, np.int16))

# reduce_scatter and all_gather, also in NCCL's in-place forms.
m = 64
x = device(data(rank, m * size))
out = cuda.device_array(m)
comm.reduce_scatter(x, out)
np.testing.assert_allclose(out.copy_to_host(), np.sum(np.stack(everyone(m * size)), axis=0)[rank * m:(rank + 1) * m])
comm.reduce_scatter(x, x[rank * m:(rank + 1) * m])
np.testing.assert_allclose(x[rank * m:(rank + 1) * m].copy_to_host(), out.copy_to_host())
g = cuda.device_array(m * size)
comm.all_gather(device(data(rank, m)), g)
np.testing.assert_array_equal(g.copy_to_host(), np.concatenate(everyone(m)))
g = device(np.zeros(m * size))
g[rank * m:(rank + 1) * m].copy_to_device(data(rank, m))
comm.all_gather(g[rank * m:(rank + 1) * m], g)
np.testing.assert_array_equal(g.copy_to_host(), np.concatenate(everyone(m)))

# A ring exchange of large messages in one group: every rank sends first,
# which would deadlock without the group.
big = 1 << 20
left, right = (rank - 1) % size, (rank + 1) % size
send, recv = device(data(rank, big)), cuda.device_array(big)
with nccl.group():
    comm.send(send, peer=right)
    comm.recv(recv, peer=left)
np.testing.assert_array_equal(recv.copy_to_host(), data(left, big))


# A kernel's partial sums, then an all-reduce: the data-parallel pattern.
@cuda.jit
def partial(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(out, 0, x[i])


x = device(data(rank, 5000))
s = device(np.zeros(1))
partial[(5000 + 255) // 256, 256](x, s)
comm.all_reduce(s)
np.testing.assert_allclose(s.copy_to_host()[0], sum(d.sum() for d in everyone(5000)), rtol=1e-9)
comm.barrier()
print("rank %d ok" % rank)
