#!/usr/bin/env bash
# One command to see cuhost work: installs what is missing, builds, and runs
# an example kernel script (on the GPU when one is present, else on the CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target cuhost cuhost_pylib
./build/bin/cuhost info
./build/bin/cuhost run scripts/examples/${1:-saxpy.py}
