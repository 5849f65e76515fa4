#!/usr/bin/env bash
# Multi-GPU benchmarks on a GPU machine with several GPUs, from the
# repository root, after scripts/gpu/bundle.sh built the bundle here:
#   1. all-reduce bus bandwidth, 1 MiB..1 GiB: cuhost in one process over all
#      GPUs, cuhost as one MPI rank per GPU, and PyTorch's NCCL all-reduce
#      (torchrun, one process per GPU) when torch is installed;
#   2. the halo-exchange stencil's strong and weak scaling over 1..N GPUs,
#      with the exchange overlapped with the interior update and without.
# Every all-reduce row is timed the same way (CUDA events on the stream the
# calls run on, after the same warm-up: allreduce_bandwidth.py); one table
# puts them side by side, PyTorch's first. Logs go to $OUT (default
# /tmp/cuhost-multigpu).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/cuhost-multigpu}
mkdir -p "$out"
bash scripts/gpu/unpack.sh
source /tmp/cuhost-bundle/cuhost/env.sh
cd scripts/bench
n=$(cuhost -c "from numba import cuda; print(len(cuda.gpus))" | tail -1)
echo "GPUs: $n" | tee "$out/multigpu.log"
run() { echo "== $*" | tee -a "$out/multigpu.log"; timeout 1800 "$@" 2>&1 | tee -a "$out/multigpu.log"; }
rm -f "$out"/allreduce_*.json
if python3 -c "import torch" 2>/dev/null; then
  run python3 -m torch.distributed.run --nproc_per_node "$n" allreduce_bandwidth.py --torch --json "$out/allreduce_torch.json"
fi
run cuhost run --nccl allreduce_bandwidth.py --json "$out/allreduce_cuhost_process.json"
run cuhost run --nccl allreduce_bandwidth.py --threads --json "$out/allreduce_cuhost_threads.json"
if command -v mpirun >/dev/null; then
  # Open MPI refuses to start as root (the GPU machine's commands run as
  # root) unless told so, as tests/mpi/run_mpi_test.py tells it.
  if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  # Containers often forbid the cross-process memory attach (CMA) that
  # Open MPI's shared-memory transport would use; MPI only bootstraps NCCL here.
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  run mpirun --oversubscribe --bind-to none -n "$n" cuhost run --nccl allreduce_bandwidth.py \
    --json "$out/allreduce_cuhost_mpi.json"
fi
run python3 allreduce_table.py "$out/allreduce_torch.json" "$out/allreduce_cuhost_process.json" \
  "$out/allreduce_cuhost_threads.json" "$out/allreduce_cuhost_mpi.json"
run python3 stencil_scaling.py --cuhost cuhost --devices "$n"
run python3 stencil_scaling.py --cuhost cuhost --devices "$n" --no-overlap
