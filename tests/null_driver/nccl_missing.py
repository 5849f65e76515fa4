# `--nccl` where NCCL cannot be loaded: the host says why and exits 1 before
# the script runs.
# env: CUHOST_NULL_DEVICES=2
# env: CUHOST_NCCL_LIBRARY=libnccl-not-installed.so.2
# cuhost-args: --nccl
# exit: 1
# stderr: cuhost: error: NCCL is unavailable: libnccl-not-installed.so.2 could not be loaded
# stderr: install NCCL (libnccl2) to use collectives on GPUs
print("the script must not run")
