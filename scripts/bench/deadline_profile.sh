#!/usr/bin/env bash
# Where --kernel-timeout's cost goes on the GPU: Nsight Compute's duration,
# instruction count, registers and memory traffic of the deadline_overhead.py
# kernels with and without the option (GPU machine; `ncu` from the toolkit).
#   bash scripts/bench/deadline_profile.sh [CUHOST]
set -uo pipefail
cd "$(dirname "$0")/../.."
cuhost=${1:-/tmp/cuhost-bundle/cuhost/bin/cuhost}
ncu_bin=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,dram__bytes.sum,lts__t_sectors_srcunit_tex_aperture_sysmem.sum,smsp__warp_issue_stalled_no_instruction_per_warp_active.pct,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio
for mode in without with; do
  extra=()
  [ "$mode" = with ] && extra=(--kernel-timeout 60)
  echo "== $mode --kernel-timeout"
  "$ncu_bin" --target-processes all --kernel-name regex:'transcendental|reduction' --launch-skip 1 --launch-count 2 \
    --metrics "$metrics" --csv "$cuhost" --backend cuda "${extra[@]}" run scripts/bench/deadline_overhead.py --child 2>&1 |
    python3 -c '
import csv, sys
for row in csv.reader(l for l in sys.stdin if l.startswith("\"")):
    if len(row) >= 15 and row[0] != "ID":
        print("%-3s %-14s %-70s %-10s %s" % (row[0], row[4].split("_")[2] if row[4].count("_") > 2 else row[4], row[12], row[13], row[14]))
' 
done
