#!/usr/bin/env bash
# Packs, here, what `stumpy.gpu_stump` needs on the GPU machine (which cannot
# download): stumpy and its dependencies (numba, llvmlite, SciPy, NumPy 2)
# for the Python 3.11 that the bundle embeds, unpacked from PyPI's wheels
# into one site-packages folder. Output: bundle-stumpy/stumpy-site.tar.xz,
# carried on its own (the bundle fills one carry); where it and the working
# tree pass 64 MiB, split it and carry the parts in calls that follow each
# other while the machine is warm (`cat` them back into this path there).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$PWD/bundle-stumpy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --only-binary=:all: --python-version 3.11 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d "$work/wheels" stumpy==1.14.1 numba==0.68.1 numpy==2.4.6 scipy==1.17.1
mkdir -p "$work/site" "$out"
for w in "$work"/wheels/*.whl; do python3 -m zipfile -e "$w" "$work/site"; done
# Tests are not needed to run stumpy.
find "$work/site" -depth -type d \( -name tests -o -name __pycache__ \) -exec rm -rf {} +
# (No strip: auditwheel-patched libraries, e.g. SciPy's OpenBLAS, break when stripped.)
tar -C "$work" -cf - site | xz -6 -T"$(nproc)" > "$out/stumpy-site.tar.xz"
ls -la "$out/stumpy-site.tar.xz"
