#!/usr/bin/env bash
# One command for the whole test suite: installs what is missing (Debian
# packages), configures and builds in build/, then runs every test with CTest.
# CUHOST_TEST_BACKEND=cuda runs the script tests on the GPU backend instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)
# Warnings fail the build here (CUHOST_WERROR=OFF in the environment to relax).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUHOST_TEST_BACKEND="${CUHOST_TEST_BACKEND:-cpu}" \
  -DCUHOST_WERROR="${CUHOST_WERROR:-ON}"
cmake --build build -j "$jobs"
cd build
ctest --output-on-failure -j "$jobs" "$@"
