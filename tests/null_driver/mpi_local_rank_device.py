# A process an MPI launcher started (its variables faked here: rank 3 of 4,
# local rank 3) takes the device of its local rank, modulo the device count,
# before any context exists; no MPI is initialized for it.
# env: CUHOST_NULL_DEVICES=2
# env: OMPI_COMM_WORLD_RANK=3
# env: OMPI_COMM_WORLD_SIZE=4
# env: OMPI_COMM_WORLD_LOCAL_RANK=3
# stdout: local rank device ok
import threading

from numba import cuda

assert cuda.get_current_device().id == 1, cuda.get_current_device()
box = []
t = threading.Thread(target=lambda: box.append(cuda.get_current_device().id))
t.start()
t.join()
assert box == [1], box  # every thread's default
print("local rank device ok")
