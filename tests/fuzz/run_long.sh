#!/usr/bin/env bash
# Long fuzzing run over a seed range (the CTest run covers a fixed small one):
#   tests/fuzz/run_long.sh FIRST LAST [valid|invalid] [cuhost binary]
# WORKERS (default: every core; each holds its own warm numba) and MINUTES
# (default 0: no limit; no batch starts after it) come from the environment;
# PYTHON names an interpreter with numba instead of build/fuzz-venv; WORK the
# work folder (default build/fuzz-long/<kind>). Failing programs and both
# results land in WORK/failures.
set -euo pipefail
cd "$(dirname "$0")/../.."
first=${1:-0}; last=${2:-100000}; kind=${3:-valid}; cuhost=${4:-build/bin/cuhost}
extra=(--workers "${WORKERS:-$(nproc)}" --minutes "${MINUTES:-0}")
[[ $kind == invalid ]] && extra+=(--invalid --batch 200)
[[ -n ${PYTHON:-} ]] && extra+=(--python "$PYTHON")
exec /usr/bin/python3 tests/fuzz/fuzz.py --cuhost "$cuhost" --seeds "$first:$last" \
  --work "${WORK:-build/fuzz-long/$kind}" --venv build/fuzz-venv "${extra[@]}"
