# Environment for running an unpacked cuhost bundle (source this file).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export LD_LIBRARY_PATH="$here/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CUHOST_PYTHONHOME="$here"
export CUHOST_BIN="$here/bin/cuhost"
export PATH="$here/bin:$PATH"
