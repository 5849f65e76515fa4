# `--nccl` in a process an MPI launcher started (its variables faked here)
# where Open MPI cannot be loaded: the host says why and exits 1.
# backends: cpu
# env: OMPI_COMM_WORLD_RANK=0
# env: OMPI_COMM_WORLD_SIZE=2
# env: CUHOST_MPI_LIBRARY=libmpi-not-installed.so.40
# cuhost-args: --nccl
# exit: 1
# stderr: cuhost: error: MPI is unavailable: Open MPI's libmpi could not be loaded (libmpi-not-installed.so.40
print("the script must not run")
