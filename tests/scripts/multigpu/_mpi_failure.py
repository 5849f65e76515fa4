# One rank fails while the other waits in a collective: the job must end
# (cuhost aborts the MPI job when a rank's script fails) instead of hanging.
# Run by tests/mpi/run_mpi_test.py, which expects a non-zero exit.
import numpy as np
from numba import cuda
from cuhost import nccl

comm = nccl.communicator()
if comm.rank == 1:
    raise RuntimeError("rank 1 fails on purpose")
x = cuda.to_device(np.ones(4))
comm.all_reduce(x)  # never completes: rank 1 is gone
print("rank 0 should not get here")
