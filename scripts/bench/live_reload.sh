#!/usr/bin/env bash
# Live kernels benchmark: builds examples/live's host in the build tree and
# runs live_reload.py against it (write-to-first-new-launch latency, cold and
# cached; p99 launch latency with and without concurrent compiles).
# Usage: scripts/bench/live_reload.sh [auto|cpu|cuda] [EDITS]
set -euo pipefail
cd "$(dirname "$0")/../.."
backend=${1:-auto}
edits=${2:-10}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target cuhost_live_example >/dev/null
# The Python the build found (a pyenv shim first on PATH would lend the host its own prefix).
python=$(sed -n 's/^Python3_EXECUTABLE:FILEPATH=//p' build/CMakeCache.txt)
CUHOST_CACHE_DIR=${CUHOST_CACHE_DIR:-$(mktemp -d)} \
  "${python:-python3}" scripts/bench/live_reload.py --host build/bin/cuhost_live_example --backend "$backend" --edits "$edits"
