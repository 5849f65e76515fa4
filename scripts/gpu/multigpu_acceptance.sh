#!/usr/bin/env bash
# The multi-GPU acceptance run, on a machine with two GPUs (nvidia-h200-x2),
# from the repository root after scripts/gpu/bundle.sh built the bundle here
# and it was carried over. In one go, under 8 minutes:
#   - every script of tests/scripts/multigpu/ on the cuda backend (the
#     _-prefixed ones as 2 MPI ranks),
#   - the examples (halo_stencil.py with and without overlap,
#     allreduce_partial_sum.py) on 1 GPU, on 2 GPUs of one process and as 2
#     MPI ranks, each checked against its NumPy reference,
#   - numba-cuda's cudapy/test_multigpu.py and cudapy/test_ipc.py under the
#     conformance harness (tests/conformance) on cuhost's cuda backend,
#   - the all-reduce table (PyTorch's row from this same run first) and the
#     stencil's strong and weak scaling.
# Commands run as root there: Open MPI is told that root may run it.
# Prints a summary (pass/fail per item, then the tables); logs go to
# $OUT/multigpu-acceptance (or /tmp/multigpu-acceptance). Each item has a
# time limit, and all of them together ACCEPTANCE_SECONDS (450): an item
# left without time is reported as skipped.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
dest=/tmp/cuhost-bundle
bash scripts/gpu/unpack.sh
source "$dest/cuhost/env.sh"
out=${OUT:-/tmp}/multigpu-acceptance
rm -rf "$out" && mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
started=$(date +%s)
budget=${ACCEPTANCE_SECONDS:-450}  # the whole run stays under 8 minutes: items get what is left
results=()
failures=0

log_of() { echo "$out/${1//[^A-Za-z0-9_.-]/_}.log"; }

# item NAME LIMIT_SECONDS COMMAND...: runs it (a program or a function
# below), logs to $(log_of NAME), records pass/fail.
item() {
  local name=$1 limit=$2
  shift 2
  local log t0 rc left
  log=$(log_of "$name")
  t0=$(date +%s)
  left=$((budget - (t0 - started)))
  if [ $left -lt 15 ]; then
    results+=("SKIP  0s  $name (out of time)")
    failures=$((failures + 1))
    return
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  timeout "$limit" bash -c '"$@"' item "$@" >"$log" 2>&1
  rc=$?
  local took=$(($(date +%s) - t0))
  if [ $rc -eq 0 ]; then
    results+=("pass  ${took}s  $name")
  elif [ $rc -eq 77 ]; then
    results+=("n/a   ${took}s  $name")
  else
    results+=("FAIL  ${took}s  $name (exit $rc, log $log)")
    failures=$((failures + 1))
    echo "---- $name failed (exit $rc); end of its log:"
    tail -n 25 "$log"
  fi
}

# expect_run TEXT COMMAND...: the command succeeds and prints TEXT.
expect_run() {
  local text=$1
  shift
  local o rc
  o=$("$@" 2>&1)
  rc=$?
  echo "$o"
  [ $rc -eq 0 ] && grep -qF -- "$text" <<<"$o"
}

# conformance IMPL MODULE...: the modules under the conformance harness;
# passes when no test failed or errored (outcome counts are printed).
conformance() {
  local impl=$1 dir=/tmp/multigpu-conformance/$1 work=$dest/cuhost/conformance
  shift
  rm -rf "$dir"
  if [ "$impl" = numba-cuda ]; then
    python3 tests/conformance/run.py run --impl numba-cuda --python python3 --site "$work/site:$work/site312" \
      --work "$work" --out "$dir" --jobs 2 --timeout 150 "$@"
  else
    python3 tests/conformance/run.py run --impl cuhost --cuhost "$CUHOST_BIN" --backend cuda \
      --work "$work" --out "$dir" --jobs 2 --timeout 150 "$@"
  fi
  [ -f "$dir/results.txt" ] || return 1
  echo "outcomes: $(awk '{print $2}' "$dir/results.txt" | sort | uniq -c | tr -s ' \n' ' ')"
  ! awk '$2 == "failed" || $2 == "error" {print; bad = 1} END {exit !bad}' "$dir/results.txt"
}
export -f expect_run conformance
export dest

n=$(cuhost -c "from numba import cuda; print(len(cuda.gpus))" 2>/dev/null | tail -1)
echo "GPUs: $n"
[ "$n" = 2 ] || echo "warning: this run is meant for 2 GPUs (found $n)"

# 1. The multi-GPU script tests on the cuda backend.
for s in tests/scripts/multigpu/*.py; do
  base=$(basename "$s")
  case "$base" in
    _mpi_failure.py)
      item "mpi 2 ranks: $base" 120 python3 tests/mpi/run_mpi_test.py --cuhost "$CUHOST_BIN" \
        --cuhost-arg=--backend=cuda --cuhost-arg=--nccl --exit -1 --expect "rank 1 fails on purpose" --timeout 100 "$s" ;;
    _*)
      item "mpi 2 ranks: $base" 150 python3 tests/mpi/run_mpi_test.py --cuhost "$CUHOST_BIN" \
        --cuhost-arg=--backend=cuda --cuhost-arg=--nccl --expect "rank 0 ok" --expect "rank 1 ok" --timeout 140 "$s" ;;
    *)
      item "script: $base" 150 bash -c "cd tests/scripts/multigpu && python3 '$repo/tests/run_script_test.py' \
        --cuhost '$CUHOST_BIN' --backend cuda '$repo/$s'" ;;
  esac
done

# 2. The examples: 1 GPU, 2 GPUs in one process, 2 MPI ranks (a larger grid
#    than CI's, so each rank has many rows).
ex=scripts/examples
stencil_args=(--ny 1024 --nx 512 --steps 100)
item "example halo_stencil 1 GPU" 120 expect_run "matches the single-domain stencil" \
  cuhost --nccl --nccl-devices 0 run $ex/halo_stencil.py "${stencil_args[@]}"
item "example halo_stencil 2 GPUs, overlapped" 120 expect_run "matches the single-domain stencil" \
  cuhost --nccl run $ex/halo_stencil.py "${stencil_args[@]}"
item "example halo_stencil 2 GPUs, no overlap" 120 expect_run "matches the single-domain stencil" \
  cuhost --nccl run $ex/halo_stencil.py "${stencil_args[@]}" --no-overlap
item "example halo_stencil 2 MPI ranks" 150 python3 tests/mpi/run_mpi_test.py --cuhost "$CUHOST_BIN" \
  --cuhost-arg=--backend=cuda --cuhost-arg=--nccl --expect "matches the single-domain stencil" --timeout 140 \
  $ex/halo_stencil.py "${stencil_args[@]}"
item "example allreduce_partial_sum 1 GPU" 120 expect_run "rank 0 of 1" \
  cuhost --nccl --nccl-devices 0 run $ex/allreduce_partial_sum.py
item "example allreduce_partial_sum 2 GPUs" 120 expect_run "rank 1 of 2" cuhost --nccl run $ex/allreduce_partial_sum.py
item "example allreduce_partial_sum 2 MPI ranks" 150 python3 tests/mpi/run_mpi_test.py --cuhost "$CUHOST_BIN" \
  --cuhost-arg=--backend=cuda --cuhost-arg=--nccl --expect "rank 0 of 2" --expect "rank 1 of 2" --timeout 140 \
  $ex/allreduce_partial_sum.py

# 3. numba-cuda's multi-GPU and IPC tests under the conformance harness.
conf_modules=(cudapy/test_multigpu.py cudapy/test_ipc.py)
item "conformance under cuhost: ${conf_modules[*]}" 240 conformance cuhost "${conf_modules[@]}"
conf_log=$(log_of "conformance under cuhost: ${conf_modules[*]}")
[ -f "$conf_log" ] && results+=("      $(grep '^outcomes:' "$conf_log")")

# 4. Benchmarks: all-reduce (PyTorch's row from this run) and stencil scaling.
bench=scripts/bench
rm -f "$out"/allreduce_*.json
if python3 -c "import torch" 2>/dev/null; then
  item "bench: PyTorch all-reduce" 150 python3 -m torch.distributed.run --nproc_per_node "$n" $bench/allreduce_bandwidth.py --torch \
    --json "$out/allreduce_torch.json"
fi
item "bench: cuhost all-reduce, one thread" 120 cuhost run --nccl $bench/allreduce_bandwidth.py \
  --json "$out/allreduce_cuhost_process.json"
item "bench: cuhost all-reduce, a thread per device" 120 cuhost run --nccl $bench/allreduce_bandwidth.py --threads \
  --json "$out/allreduce_cuhost_threads.json"
item "bench: cuhost all-reduce, MPI ranks" 150 mpirun --oversubscribe --bind-to none -n "$n" \
  "$CUHOST_BIN" run --nccl $bench/allreduce_bandwidth.py --json "$out/allreduce_cuhost_mpi.json"
item "bench: stencil scaling, overlapped" 200 python3 $bench/stencil_scaling.py --cuhost "$CUHOST_BIN" --devices "$n"
item "bench: stencil scaling, no overlap" 200 python3 $bench/stencil_scaling.py --cuhost "$CUHOST_BIN" \
  --devices "$n" --no-overlap

echo
echo "==== multi-GPU acceptance: $failures item(s) failed, $(($(date +%s) - started)) s"
printf '%s\n' "${results[@]}"
echo
echo "==== all-reduce, float32 (time per call from CUDA events; x[0]: over the first row's time)"
python3 $bench/allreduce_table.py "$out/allreduce_torch.json" "$out/allreduce_cuhost_process.json" \
  "$out/allreduce_cuhost_threads.json" "$out/allreduce_cuhost_mpi.json"
for f in "$(log_of "bench: stencil scaling, overlapped")" "$(log_of "bench: stencil scaling, no overlap")"; do
  echo
  [ -f "$f" ] && cat "$f"
done
[ $failures -eq 0 ]
