#!/usr/bin/env bash
# Live kernels benchmark: builds examples/live's host in the build tree and
# runs live_reload.py against it (write-to-first-new-launch latency, cold and
# cached; p99 launch latency with and without concurrent compiles).
# Usage: scripts/bench/live_reload.sh [auto|cpu|cuda] [EDITS]
# On the GPU machine (no build tree there): LIVE_HOST=/tmp/cuhost-bundle/cuhost/bin/cuhost_live_example
# uses the bundle's host instead of building one.
set -euo pipefail
cd "$(dirname "$0")/../.."
backend=${1:-auto}
edits=${2:-10}
host=${LIVE_HOST:-}
python=
if [ -z "$host" ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build --target cuhost_live_example >/dev/null
  host=build/bin/cuhost_live_example
  # The Python the build found (a pyenv shim first on PATH would lend the host its own prefix).
  python=$(sed -n 's/^Python3_EXECUTABLE:FILEPATH=//p' build/CMakeCache.txt)
fi
CUHOST_CACHE_DIR=${CUHOST_CACHE_DIR:-$(mktemp -d)} \
  "${python:-python3}" scripts/bench/live_reload.py --host "$host" --backend "$backend" --edits "$edits"
