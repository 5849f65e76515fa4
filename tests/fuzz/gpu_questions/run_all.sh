#!/usr/bin/env bash
# The GPU questions of the CPU-against-CUDA triage (docs/RELIABILITY.md), one
# command on the GPU machine from the repository root: each script on the
# CUDA backend and on the CPU backend (float_to_int.py also on the CPU with
# saturating conversions), their lines side by side with the differing
# ones marked. Under a minute.
set -uo pipefail
cd "$(dirname "$0")"
if [[ -z ${CUHOST_BIN:-} && -f /tmp/cuhost-bundle/cuhost/env.sh ]]; then
  # shellcheck disable=SC1091
  source /tmp/cuhost-bundle/cuhost/env.sh
fi
cuhost=${CUHOST_BIN:-../../../build/bin/cuhost}
ask() {  # ask NAME SCRIPT ENV...: the script's answer lines on one backend
  local backend=$1 script=$2; shift 2
  env CUHOST_NO_CACHE=1 "$@" "$cuhost" --backend "$backend" run "$script" 2>/dev/null | grep -E '^(nan_sign|nan_sign_wide|narrow_int|float_to_int|abs_min_to_float) '
}
for script in nan_sign.py nan_sign_wide.py narrow_int.py float_to_int.py abs_min_to_float.py; do
  echo "== $script: CUDA | CPU"
  paste -d'|' <(ask cuda "$script") <(ask cpu "$script") | awk -F'|' '{print ($1 == $2 ? "  " : "* ") $1 " | " $2}'
done
echo "== float_to_int.py: CUDA | CPU with CUHOST_SATURATING_FLOAT_TO_INT=1 (all lines must be equal)"
paste -d'|' <(ask cuda float_to_int.py) <(ask cpu float_to_int.py CUHOST_SATURATING_FLOAT_TO_INT=1) |
  awk -F'|' '{print ($1 == $2 ? "  " : "* ") $1 " | " $2}'
