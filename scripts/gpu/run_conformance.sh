#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, after the bundle was
# built here (scripts/gpu/bundle.sh) and carried over: numba-cuda's own test
# suite (tests/conformance) under numba-cuda itself and under cuhost's CUDA
# backend, one process per module, and the table of the two.
#   scripts/gpu/run_conformance.sh [numba-cuda|cuhost|both] [MODULE...]
# Each part fits in one device call; results land in $OUT (or /tmp):
# conformance-<impl>.tar.gz (summary.json, results.jsonl, results.txt, logs)
# and, once both are there, conformance-table.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
dest=/tmp/cuhost-bundle
bash scripts/gpu/unpack.sh
source "$dest/cuhost/env.sh"
work=$dest/cuhost/conformance
out=${OUT:-/tmp}
which=${1:-both}
shift || true
jobs=${CONFORMANCE_JOBS:-8}
run_impl() {
  local impl=$1; shift
  local dir=/tmp/conformance/$impl
  rm -rf "$dir"
  if [ "$impl" = numba-cuda ]; then
    python3 tests/conformance/run.py run --impl numba-cuda --python python3 --site "$work/site:$work/site312" \
      --work "$work" --out "$dir" --jobs "$jobs" --timeout 240 "$@"
  else
    python3 tests/conformance/run.py run --impl cuhost --cuhost "$CUHOST_BIN" --backend cuda \
      --work "$work" --out "$dir" --jobs "$jobs" --timeout 240 "$@"
  fi
  tar -C /tmp/conformance -czf "$out/conformance-$impl.tar.gz" "$impl"
}
case "$which" in
  numba-cuda|cuhost) run_impl "$which" "$@" ;;
  both) run_impl numba-cuda "$@"; run_impl cuhost "$@" ;;
  *) echo "usage: $0 [numba-cuda|cuhost|both] [MODULE...]" >&2; exit 2 ;;
esac
if [ -f /tmp/conformance/numba-cuda/summary.json ] && [ -f /tmp/conformance/cuhost/summary.json ]; then
  python3 tests/conformance/run.py table --cuhost /tmp/conformance/cuhost --reference /tmp/conformance/numba-cuda \
    --output "$out/conformance-table.md" | tail -n 3
fi
