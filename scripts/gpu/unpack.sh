#!/usr/bin/env bash
# Unpacks bundle/cuhost-gpu.tar.xz to /tmp/cuhost-bundle (once per machine)
# and makes the paths the test binaries were built with valid there.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
dest=/tmp/cuhost-bundle
if [ ! -x "$dest/cuhost/bin/cuhost" ] || [ bundle/cuhost-gpu.tar.xz -nt "$dest/cuhost/bin/cuhost" ]; then
  rm -rf "$dest" && mkdir -p "$dest"
  tar -C "$dest" -xJf bundle/cuhost-gpu.tar.xz
  # Bytecode, as installing a Python package writes it (the bundle carries
  # none, to fit the carry limit; the GPU machine sets
  # PYTHONDONTWRITEBYTECODE, so without this every process compiles NumPy
  # and the standard library from source again: ~0.6 s of each start).
  "$dest/cuhost/bin/cuhost" -m compileall -q -j 0 "$dest/cuhost/lib/python3.11" "$dest/cuhost/site" \
    "$dest/cuhost/share/cuhost/python" >/dev/null 2>&1 || echo "unpack: compileall failed; processes start slower"
fi
if [ "$repo" != /work/main ] && [ "$(readlink -f /work/main 2>/dev/null)" != "$repo" ]; then
  mkdir -p /work && rm -rf /work/main && ln -s "$repo" /work/main
fi
mkdir -p /usr/lib/llvm-19/bin && cp -f "$dest/cuhost/bin/FileCheck" /usr/lib/llvm-19/bin/FileCheck
