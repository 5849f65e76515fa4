#!/usr/bin/env bash
# Two cuhost builds side by side in one call on the GPU machine: the launch
# and compile rows (P1 launch of a 4-argument kernel against raw <<<>>>,
# P4 first call and process start, P5 first call from the disk cache, P10
# growth from 10 to 100 chained device functions) of build A and build B,
# alternating A and B within each round so both meet the same host noise.
#   bash scripts/bench/compare_builds.sh DIR_A DIR_B [ROUNDS]
# DIR_A/DIR_B: an unpacked bundle's cuhost folder (holding bin/cuhost and
# env.sh), e.g. the bundle of a change's parent and of the change
# (scripts/gpu/bundle.sh; an overlay of another build's bin/, lib/libcuhost*
# and share/ on a copy of one bundle serves, the other libraries being the
# same). Prints each row's median over the rounds for A and B and B/A.
set -uo pipefail
cd "$(dirname "$0")"
a=${1:?DIR_A}; b=${2:?DIR_B}; rounds=${3:-3}
log=${OUT:-/tmp}/compare_builds.log
: > "$log"
nvcc -O3 -arch=sm_90 -o /tmp/raw_kernels raw/kernels.cu
for round in $(seq "$rounds"); do
  /tmp/raw_kernels launch | sed "s/^/raw round=$round /" >> "$log"
  for side in A B; do
    dir=$a; [ "$side" = B ] && dir=$b
    tag="$side round=$round"
    "$dir/bin/cuhost" run bench_launch.py 2>/dev/null | sed "s/^/$tag /" >> "$log"
    export CUHOST_CACHE_DIR=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d)
    BENCH_LABEL=_cold "$dir/bin/cuhost" run bench_compile.py 2>/dev/null | sed "s/^/$tag /" >> "$log"
    BENCH_LABEL=_cached "$dir/bin/cuhost" run bench_compile.py 2>/dev/null | sed "s/^/$tag /" >> "$log"
  done
done
python3 - "$log" <<'PY'
import json, statistics, sys, collections
rows = collections.defaultdict(list)   # (side, name) -> medians per round
per_round = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    head, sep, js = line.partition("CUHOST-BENCH ")
    if not sep:
        continue
    side, rnd = head.split()[0], head.split()[1]
    r = json.loads(js)
    rows[(side, r["name"])].append(r["median"])
    per_round[(side, rnd)][r["name"]] = r["median"]
def med(side, name):
    v = rows.get((side, name))
    return statistics.median(v) if v else float("nan")
print("%-36s %12s %12s %8s" % ("row", "A", "B", "B/A"))
names = ["launch_4args_device", "first_call_saxpy_cold", "process_start_to_first_result_cold",
         "first_call_saxpy_cached", "first_call_chain_10_cold", "first_call_chain_100_cold"]
for n in names:
    x, y = med("A", n), med("B", n)
    print("%-36s %12.4g %12.4g %8.3f" % (n, x, y, y / x if x else float("nan")))
for side in "AB":
    p1 = [per_round[(side, k[1])].get("launch_4args_device", float("nan")) /
          per_round[("raw", k[1])].get("launch_4args_device", float("nan"))
          for k in per_round if k[0] == side and ("raw", k[1]) in per_round]
    growth = med(side, "first_call_chain_100_cold") / med(side, "first_call_chain_10_cold")
    print("%s: P1 cuhost/raw per round %s (median %.3f); P10 growth 100 vs 10: %.2fx"
          % (side, " ".join("%.3f" % v for v in p1), statistics.median(p1) if p1 else float("nan"), growth))
PY
