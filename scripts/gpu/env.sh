# Puts an unpacked cuhost bundle's `cuhost` on PATH (source this file). The
# bundle's libraries are set by the wrapper scripts for cuhost alone.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export CUHOST_BIN="$here/bin/cuhost"
export PATH="$here/bin:$PATH"
