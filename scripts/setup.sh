#!/usr/bin/env bash
# Installs the Debian 12 packages cuhost builds against. Idempotent: a package
# already present is not touched, and apt is only consulted when one is missing.
# The CUDA 13 toolkit itself is expected at /usr/local/cuda (headers, NVRTC,
# nvJitLink, libdevice); the driver library is never needed to build.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache pkg-config
  llvm-19-dev llvm-19-tools clang-19 libclang-19-dev
  libpython3.11-dev python3.11 python3-numpy python3-cffi python3-pycparser python3-ply python3-pytest python3-pip
  python3-llvmlite python3-cloudpickle
  libboost-program-options-dev catch2 clang-format libtomlplusplus-dev xz-utils
  openmpi-bin libopenmpi-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -f /usr/local/cuda/include/nvJitLink.h ] || [ ! -f /usr/local/cuda/include/nvrtc.h ]; then
  echo "setup: the CUDA 13 toolkit is expected at /usr/local/cuda (nvrtc.h, nvJitLink.h not found)" >&2
  exit 1
fi

# ml_dtypes: NumPy's bfloat16/float8 dtypes, which numba-cuda's bfloat16 tests
# (and tests/scripts/half) use as references. Not in Debian 12; from PyPI.
if ! /usr/bin/python3 -c "import ml_dtypes" 2>/dev/null; then
  echo "setup: installing ml_dtypes"
  /usr/bin/python3 -m pip install -q --break-system-packages "ml_dtypes==0.5.4" || echo "setup: ml_dtypes not installed (bfloat16 reference tests will be skipped)" >&2
fi
