#!/usr/bin/env bash
# cuhost's own launch cost, with no GPU: bench_launch.py on the CUDA backend
# over the null driver (tests/null_driver/null_cuda.cpp), where every driver
# call returns at once. What it prints is the host side alone (argument
# typing, plan lookup, packing, the GIL release around the driver call, the
# Python call itself); on a GPU the driver's own cost comes on top. Profile
# it with: perf record -g <the cuhost command below>.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target cuhost cuhost_null_cuda >/dev/null
cd scripts/bench
CUHOST_CACHE_DIR=${CUHOST_CACHE_DIR:-$(mktemp -d)} LD_LIBRARY_PATH=$PWD/../../build/null_driver \
  ../../build/bin/cuhost --backend cuda run bench_launch.py | grep -v '^CUHOST-BENCH'
