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
fi
if [ "$repo" != /work/main ] && [ "$(readlink -f /work/main 2>/dev/null)" != "$repo" ]; then
  mkdir -p /work && rm -rf /work/main && ln -s "$repo" /work/main
fi
mkdir -p /usr/lib/llvm-19/bin && cp -f "$dest/cuhost/bin/FileCheck" /usr/lib/llvm-19/bin/FileCheck
