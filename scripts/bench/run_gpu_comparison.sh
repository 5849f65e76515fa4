#!/usr/bin/env bash
# The whole comparison on the GPU machine in one call, from the repository
# root, after scripts/gpu/bundle.sh built the bundle here: the benchmark
# scripts under cuhost (bundle) and under python3 with numba-cuda (same
# scripts), CuPy rows where CuPy is present, the nvcc versions of the
# kernels, the C++ embedding launch (P2), and the shared peer script (.peers/run_peers.sh when carried).
# Prints the ratio table last; logs and a Markdown table go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
out=${OUT:-/tmp/cuhost-bench}
mkdir -p "$out"
bash scripts/gpu/unpack.sh
source /tmp/cuhost-bundle/cuhost/env.sh
cd scripts/bench
export CUHOST_CACHE_DIR=$(mktemp -d)
log=$out/bench.log
: > "$log"
run() { echo "== $*" | tee -a "$log"; timeout 900 "$@" 2>&1 | tee -a "$log"; }
# BENCH_PARTS picks parts (default: all of them, in this order).
parts=${BENCH_PARTS:-"launch kernels compile ffi ufunc random start graphs"}
want() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# Launch costs move by up to 30% between processes on a shared host, raw C++
# included: cuhost's launch rows and the raw launches alternate for
# LAUNCH_ROUNDS rounds, and compare.py takes the median of the rounds.
nvcc -O3 -arch=sm_90 -o /tmp/raw_kernels raw/kernels.cu
if want launch; then
  for round in $(seq "${LAUNCH_ROUNDS:-5}"); do
    run /tmp/raw_kernels launch
    run cuhost run bench_launch.py
    run cuhost_bench_embed
  done
  run python3 bench_launch.py
fi
# The kernels part also alternates cuhost and nvcc for PART_ROUNDS rounds
# (the P7 rows then compare medians of rounds, each round listed).
if want kernels; then
  for round in $(seq "${PART_ROUNDS:-1}"); do
    run cuhost run bench_kernels.py
    run /tmp/raw_kernels kernels
  done
  run python3 bench_kernels.py
fi
if want compile; then
  # Cold figures need empty caches: the other scripts compile identical
  # kernels. Two caches: cuhost's, and the driver's, which keeps the code it
  # compiled from the PTX of kernels without foreign code; the cached run
  # finds what the cold run left in both.
  # PART_ROUNDS rounds, each with fresh caches, alternate with the CUDA C++
  # program of the process-start row (raw/start.cu); every process is timed
  # from the shell's clock just before its launch (CUHOST_BENCH_LAUNCH_NS).
  nvcc -O3 -arch=sm_90 -o /tmp/raw_start raw/start.cu
  for round in $(seq "${PART_ROUNDS:-1}"); do
    export CUHOST_CACHE_DIR=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d)
    run env CUHOST_BENCH_LAUNCH_NS=$(date +%s%N) /tmp/raw_start
    BENCH_LABEL=_cold run env CUHOST_BENCH_LAUNCH_NS=$(date +%s%N) cuhost run bench_compile.py
    BENCH_LABEL=_cached run env CUHOST_BENCH_LAUNCH_NS=$(date +%s%N) cuhost run bench_compile.py
  done
  run env CUHOST_BENCH_LAUNCH_NS=$(date +%s%N) python3 bench_compile.py
fi
# PART_ROUNDS (default 1) repeats the cuhost and nvcc sides of the kernels, ffi and
# ufunc parts (P6 cold and cached, U1), each round with fresh caches;
# compare.py takes the median of the rounds and lists them.
if want ffi; then
  for round in $(seq "${PART_ROUNDS:-1}"); do
    export CUHOST_CACHE_DIR=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d)
    BENCH_LABEL=_cold run cuhost -v run bench_ffi.py
    BENCH_LABEL=_cached run cuhost -v run bench_ffi.py
  done
  run python3 bench_ffi.py
fi
if want ufunc; then
  nvcc -O3 -arch=sm_90 -o /tmp/raw_ufunc raw/ufunc.cu
  for round in $(seq "${PART_ROUNDS:-1}"); do
    run cuhost run bench_ufunc.py
    run /tmp/raw_ufunc
  done
  run python3 bench_ufunc.py
fi
if want random; then
  run cuhost run bench_random.py
  run python3 bench_random.py
fi
if want start && ! want compile; then  # the compile part runs it in its rounds
  nvcc -O3 -arch=sm_90 -o /tmp/raw_start raw/start.cu && run env CUHOST_BENCH_LAUNCH_NS=$(date +%s%N) /tmp/raw_start
fi
if want graphs; then
  # Graphs: a chain of 100 small kernels, eager and replayed, alternating with
  # the CUDA C++ version as the launch rows do; numba-cuda has no graphs (eager
  # row only); PyTorch's CUDA graphs where torch is importable.
  nvcc -O3 -arch=sm_90 -o /tmp/raw_graphs raw/graphs.cu
  for round in $(seq "${LAUNCH_ROUNDS:-5}"); do
    run /tmp/raw_graphs
    run cuhost run bench_graphs.py
  done
  run python3 bench_graphs.py
  if python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
    run python3 bench_graphs_torch.py
  else
    echo "== torch not importable here: no PyTorch graph rows" | tee -a "$log"
  fi
fi
if [ -f "$repo/.peers/run_peers.sh" ]; then run bash "$repo/.peers/run_peers.sh"; fi
echo "== comparison"
python3 compare.py "$log" --markdown "$out/bench_table.md"
