#!/usr/bin/env bash
# P9, measured in one run on this machine: cuhost's CPU backend against
# numba-cuda's simulator and numba's @njit(parallel=True), on saxpy and a
# shared-memory reduction. numba and numba-cuda are installed from PyPI into
# a throwaway virtual environment used for this benchmark only. Prints the
# three systems' figures and the ratios (per element, so the simulator's
# smaller problem compares fairly).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
cuhost=${CUHOST:-$root/build/bin/cuhost}
venv=${BENCH_VENV:-/tmp/cuhost-bench-venv}
if [ ! -x "$venv/bin/python" ]; then
  /usr/bin/python3.11 -m venv "$venv"
  "$venv/bin/pip" install -q "numba==0.68.*" "numba-cuda==0.30.4"
fi
log=$(mktemp)
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
"$cuhost" --backend cpu --no-bounds-check run bench_cpu.py | tee -a "$log"
"$cuhost" --backend cpu run bench_cpu.py | sed 's/"backend": "cpu"/"backend": "cpu-checked"/; s/cuhost\/cpu /cuhost\/cpu-checked /' | tee -a "$log"
NUMBA_ENABLE_CUDASIM=1 "$venv/bin/python" bench_cpu.py | tee -a "$log"
"$venv/bin/python" bench_cpu_njit.py | tee -a "$log"
python3 - "$log" <<'PY'
import json, sys
rows = [json.loads(l.split(" ", 1)[1]) for l in open(sys.argv[1]) if l.startswith("CUHOST-BENCH ")]
by = {}
for r in rows:
    by.setdefault(r["name"], {})[r["system"] + "/" + r["backend"]] = r["ns_per_element"]
print()
print("%-22s %16s %16s %16s %16s %14s %14s" % ("benchmark (ns/elem)", "cuhost cpu", "cuhost checked",
      "numba sim", "numba njit", "x vs sim", "vs njit"))
for name, d in by.items():
    c = d.get("cuhost/cpu"); k = d.get("cuhost/cpu-checked"); s = d.get("numba-cuda-sim/sim"); n = d.get("numba-njit/parallel")
    print("%-22s %16.3f %16.3f %16.1f %16.3f %13.0fx %13.2fx" % (name, c, k, s, n, s / c, c / n))
print("(x vs sim: how many times faster than numba-cuda's simulator; vs njit: cuhost time / njit time, target <= 1.5)")
PY
