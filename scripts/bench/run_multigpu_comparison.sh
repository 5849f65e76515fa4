#!/usr/bin/env bash
# Multi-GPU benchmarks on a GPU machine with several GPUs, from the
# repository root, after scripts/gpu/bundle.sh built the bundle here:
#   1. all-reduce bus bandwidth, 1 MiB..1 GiB: cuhost in one process over all
#      GPUs, cuhost as one MPI rank per GPU, and PyTorch's NCCL all-reduce
#      (torchrun, one process per GPU) when torch is installed;
#   2. the halo-exchange stencil's strong and weak scaling over 1..N GPUs.
# Logs go to $OUT (default /tmp/cuhost-multigpu).
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
run cuhost run --nccl allreduce_bandwidth.py --json "$out/allreduce_cuhost_process.json"
if command -v mpirun >/dev/null; then
  run mpirun --oversubscribe --bind-to none -n "$n" cuhost run --nccl allreduce_bandwidth.py \
    --json "$out/allreduce_cuhost_mpi.json"
fi
if python3 -c "import torch" 2>/dev/null; then
  run torchrun --nproc_per_node "$n" allreduce_bandwidth.py --torch --json "$out/allreduce_torch.json"
fi
run python3 stencil_scaling.py --cuhost cuhost --devices "$n"
