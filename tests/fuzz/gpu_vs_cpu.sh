#!/usr/bin/env bash
# cuhost's CPU backend against its CUDA backend over a seed range, on the GPU
# machine, as one command that uses every core and stops itself:
#   tests/fuzz/gpu_vs_cpu.sh FIRST LAST [MINUTES] [WORKERS]
# run from the repository root after `bash scripts/gpu/unpack.sh` (the
# bundle's env.sh is sourced when CUHOST_BIN is unset). No batch starts after
# MINUTES (default 7.5); batches running then are cut 60 s later, so the
# command ends within MINUTES + 1.5 minutes. The last line is the summary,
# with the seed range finished ("seeds_finished": resume from its end).
# Differences are kept under WORK/differences/s<seed> (WORK: $FUZZ_WORK, else
# $OUT/fuzz-gpu-vs-cpu-FIRST-LAST when $OUT is set, else /tmp/...).
set -euo pipefail
cd "$(dirname "$0")/../.."
first=${1:?FIRST seed}; last=${2:?LAST seed (exclusive)}; minutes=${3:-7.5}; workers=${4:-$(nproc)}
if [[ -z ${CUHOST_BIN:-} && -f /tmp/cuhost-bundle/cuhost/env.sh ]]; then
  # shellcheck disable=SC1091
  source /tmp/cuhost-bundle/cuhost/env.sh
fi
cuhost=${CUHOST_BIN:-build/bin/cuhost}
work=${FUZZ_WORK:-${OUT:-/tmp}/fuzz-gpu-vs-cpu-$first-$last}
mkdir -p "$work"
rc=0
python3 tests/fuzz/backends.py --cuhost "$cuhost" --seeds "$first:$last" --a cpu --b cuda \
  --workers "$workers" --minutes "$minutes" --batch 100 --work "$work" 2>&1 | tee "$work/log.txt" || rc=$?
rm -rf "$work"/w[0-9]*   # the workers' batch folders; differences stay
exit "$rc"
