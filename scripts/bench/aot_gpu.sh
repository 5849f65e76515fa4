#!/usr/bin/env bash
# cuhost::aot on the GPU machine in one call, from the repository root, after
# scripts/gpu/bundle.sh built the bundle here: exports scripts/bench/aot_kernels.py
# with the bundle's `cuhost export` (a cubin for the GPU; no CPU library),
# builds aot_launch.cu with nvcc against the bundle's libcuhost_aot and
# cuhost/aot.h, runs it (launch cost against <<<>>>, the exported graph in the
# host's own capture against a CUDA C++ graph, load time), then runs the
# examples/aot program on the GPU. Logs go to $OUT (default /tmp/cuhost-bench).
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
out=${OUT:-/tmp/cuhost-bench}
mkdir -p "$out"
bash scripts/gpu/unpack.sh
source /tmp/cuhost-bundle/cuhost/env.sh
top=/tmp/cuhost-bundle/cuhost
log=$out/aot.log
: > "$log"
run() { echo "== $*" | tee -a "$log"; timeout 600 "$@" 2>&1 | tee -a "$log"; return "${PIPESTATUS[0]}"; }
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d .)
work=$(mktemp -d)
export CUHOST_CACHE_DIR=$work/cache
status=0
run cuhost export scripts/bench/aot_kernels.py -o "$work/bench" --kernel 'step:void(float32[::1], float32)' \
  --arch "sm_$arch" --cpu none --namespace aot_bench || status=1
run nvcc -O3 -std=c++17 -arch="sm_$arch" -I"$top/include" -I"$work/bench" -o "$work/aot_launch" \
  scripts/bench/aot_launch.cu -L"$top/lib" -lcuhost_aot -ldl -Xlinker -rpath="$top/lib" || status=1
run "$work/aot_launch" "$work/bench" || status=1
# The example of the issue's acceptance on the GPU: noise (plugin), center (cooperative), step (graph in capture).
run cuhost export examples/aot/kernels.py -o "$work/example" --all-compiled --arch "sm_80,sm_$arch" \
  --namespace aot_kernels || status=1
run g++ -O2 -std=c++17 -I"$top/include" -I"$work/example" -o "$work/aot_example" examples/aot/aot_example.cpp \
  -L"$top/lib" -lcuhost_aot -ldl -Wl,-rpath,"$top/lib" || status=1
run ldd "$work/aot_example"
run "$work/aot_example" "$work/example" || status=1
run "$work/aot_example" "$work/example" cpu || status=1
echo "aot_gpu.sh: exit $status (log: $log)" | tee -a "$log"
exit $status
