#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, after the bundle was
# built here (scripts/gpu/bundle.sh) and carried over: unpacks it, then runs
# the whole test suite with the CUDA backend — unit tests, CLI tests, every
# script test and example — and prints the pass counts. Results also go to
# $OUT/gpu-tests.log when $OUT is set. RUN_PARTS picks parts (default
# "unit cli scripts aot"); SCRIPT_JOBS runs that many scripts at once.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
dest=/tmp/cuhost-bundle
bash scripts/gpu/unpack.sh
source "$dest/cuhost/env.sh"
log=${OUT:-/tmp}/gpu-tests.log
: > "$log"
backend=${CUHOST_TEST_BACKEND:-cuda}
{
  echo "== cuhost info"; cuhost info
  want() { case " ${RUN_PARTS:-unit cli scripts aot} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
  if want unit; then
  echo "== unit tests (one process per test case, as CTest runs them)"
  upass=0; ufail=0
  while IFS= read -r name; do
    [ -z "$name" ] && continue
    spec=${name//\\/\\\\}; spec=${spec//,/\\,}; spec=${spec//[/\\[}  # Catch2 test-spec escaping
    if "$dest/cuhost/tests/cuhost_unit_tests" "$spec" > /tmp/unit.out 2>&1; then upass=$((upass+1));
    else ufail=$((ufail+1)); echo "FAILED unit: $name"; tail -n 30 /tmp/unit.out; fi
  done < <("$dest/cuhost/tests/cuhost_unit_tests" --list-test-names-only)
  echo "unit: $upass passed, $ufail failed"
  fi
  if want cli; then
  echo "== command-line tests"
  python3 tests/cli/test_cli.py "$CUHOST_BIN" 2>&1 | tail -n 30
  fi
  if want scripts; then
  echo "== script tests and examples on backend $backend"
  # SCRIPT_JOBS (default 1) scripts run at once; each one's output is kept
  # and shown only when it fails.
  results=$(mktemp -d)
  export repo backend results
  run_one() {
    s=$1; name=${s//\//_}
    out=$(cd "$(dirname "$s")" && python3 "$repo/tests/run_script_test.py" --cuhost "$CUHOST_BIN" --backend "$backend" "$repo/$s" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then echo "passed $s"; elif [ $rc -eq 77 ]; then echo "na $s"; else echo "$out" > "$results/$name.txt"; echo "failed $s"; fi
  }
  export -f run_one
  # Scripts marked `# timing: alone` (they assert durations) run after the
  # others, one at a time.
  { find tests/scripts -name '*.py' ! -name '_*' | sort; ls scripts/examples/*.py; } > "$results/all.txt"
  xargs grep -l '^# timing: alone' < "$results/all.txt" > "$results/alone.txt" || true
  grep -vxF -f "$results/alone.txt" "$results/all.txt" |
    xargs -P "${SCRIPT_JOBS:-1}" -I{} bash -c 'run_one "$@"' _ {} > "$results/list.txt"
  xargs -I{} bash -c 'run_one "$@"' _ {} < "$results/alone.txt" >> "$results/list.txt"
  for s in $(grep '^failed ' "$results/list.txt" | cut -d' ' -f2); do head -n 40 "$results/${s//\//_}.txt"; done
  for s in $(grep '^failed ' "$results/list.txt" | cut -d' ' -f2); do echo "FAILED: $s"; done
  echo "scripts: $(grep -c '^passed ' "$results/list.txt") passed, $(grep -c '^failed ' "$results/list.txt") failed," \
    "$(grep -c '^na ' "$results/list.txt") not applicable on $backend"
  fi
  if want aot; then
  echo "== aot: examples/aot exported, built against the installed aot component only (find_package), run on the GPU and on its CPU library"
  aot=$(mktemp -d); top=$dest/cuhost
  if cuhost export examples/aot/kernels.py -o "$aot/k" --all-compiled --arch sm_80,sm_90 --namespace aot_kernels > "$aot/log" 2>&1 &&
     cmake -S examples/aot -B "$aot/b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$top/aot-prefix" \
       -DAOT_EXPORT_DIR="$aot/k" >> "$aot/log" 2>&1 && cmake --build "$aot/b" >> "$aot/log" 2>&1 &&
     ! ldd "$aot/b/cuhost_aot_example" | grep -E 'libpython|libLLVM|libnvrtc|libnvJitLink|libcuhost\.so' >> "$aot/log" &&
     "$aot/b/cuhost_aot_example" "$aot/k" >> "$aot/log" 2>&1 && "$aot/b/cuhost_aot_example" "$aot/k" cpu >> "$aot/log" 2>&1; then
    echo "aot example: passed"; ldd "$aot/b/cuhost_aot_example" | awk '{print $1}' | tr '\n' ' '; echo; tail -n 4 "$aot/log"
  else
    echo "FAILED: aot example"; tail -n 40 "$aot/log"
  fi
  fi
} 2>&1 | tee -a "$log"
