#!/usr/bin/env bash
# Runs on the GPU machine after scripts/gpu/unpack.sh (the bundle at
# /tmp/cuhost-bundle): makes a venv for the bundle's Python 3.11 from
# bundle-stumpy/stumpy-site.tar.xz (scripts/gpu/stumpy_wheels.sh) and runs
# tests/venv/stumpy_beside_cuhost.py under cuhost in it: stumpy.stump on
# numba's own parallel CPU code, stumpy.gpu_stump on cuhost's CUDA backend,
# both checked against a brute-force matrix profile and against each other.
set -euo pipefail
cd "$(dirname "$0")/../.."
cuhost=/tmp/cuhost-bundle/cuhost/bin/cuhost
venv=/tmp/stumpy-venv
if [ ! -d "$venv/lib/python3.11/site-packages/stumpy" ]; then
  rm -rf "$venv" && mkdir -p "$venv/lib/python3.11" "$venv/bin"
  tar -C "$venv/lib/python3.11" -xJf bundle-stumpy/stumpy-site.tar.xz
  mv "$venv/lib/python3.11/site" "$venv/lib/python3.11/site-packages"
  printf 'home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n' > "$venv/pyvenv.cfg"
fi
VIRTUAL_ENV=$venv "$cuhost" -c "import sys, numpy, numba, llvmlite, scipy, stumpy; from numba import cuda
print(sys.prefix, 'numpy', numpy.__version__, 'numba', numba.__version__, numba.__file__, 'stumpy', stumpy.__version__)
print('numba.cuda backend:', cuda.backend(), cuda.get_current_device().name)"
VIRTUAL_ENV=$venv "$cuhost" run tests/venv/stumpy_beside_cuhost.py
