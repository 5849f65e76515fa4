#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, after the bundle was
# carried over: every script test and example on the CUDA backend under
# NVIDIA's compute-sanitizer, with its default API-error reporting on, and
# prints each tool's error summary. A report lands in its own log file
# (--log-file), so the tests' own stdout checks still hold.
#   bash scripts/gpu/run_sanitizers.sh [TOOLS] [JOBS] [MINUTES]
#   TOOLS: comma-separated (memcheck,racecheck,synccheck; default all three)
#   JOBS: tests run at once (default 8); MINUTES: stop starting tests after
#   this many minutes per tool (default 6), the rest counted as not run.
#   SANITIZE_ONLY=REGEX runs the tests whose paths match it.
# Results: $OUT/sanitizer-<tool>.txt (or /tmp): the verdict of
# scripts/gpu/sanitizer_report.py (errors, records a test expects, records in
# foreign libraries), and $OUT/sanitizer-<tool>-logs.tar.gz with every log.
# The exit status is 1 when a tool reports an error of cuhost's or a test fails.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
tools=${1:-memcheck,racecheck,synccheck}
jobs=${2:-8}
minutes=${3:-6}
if [ -z "${CUHOST_BIN:-}" ]; then
  bash scripts/gpu/unpack.sh > /dev/null
  source /tmp/cuhost-bundle/cuhost/env.sh
fi
sanitizer=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
list=$(mktemp)
{ find tests/scripts -name '*.py' ! -name '_*' | sort; ls scripts/examples/*.py; } |
  grep -E "${SANITIZE_ONLY:-.}" > "$list"
status=0
for tool in ${tools//,/ }; do
  work=/tmp/sanitize-$tool
  rm -rf "$work" && mkdir -p "$work/logs" "$work/out" && : > "$work/pids.txt"
  cat > "$work/cuhost" <<WRAP
#!/usr/bin/env bash
echo "\$\$ \$*" >> "$work/pids.txt"
exec "$sanitizer" --tool $tool --log-file "$work/logs/%p.log" --print-limit 20 "$CUHOST_BIN" "\$@"
WRAP
  chmod +x "$work/cuhost"
  deadline=$(( $(date +%s) + $(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }') ))  # MINUTES may be fractional
  # The tools slow launches down (racecheck most): the tests' own time limits scale.
  export CUHOST_TEST_TIMEOUT_SCALE=${CUHOST_TEST_TIMEOUT_SCALE:-3}
  export work repo deadline backend=cuda
  # One test: its result line (passed/failed/n/a/not run) and its logs renamed after it.
  run_one() {
    s=$1; name=${s//\//_}
    if [ "$(date +%s)" -ge "$deadline" ]; then echo "notrun $s"; return; fi
    before=$(ls "$work/logs" | wc -l)
    out=$(cd "$(dirname "$s")" && python3 "$repo/tests/run_script_test.py" --cuhost "$work/cuhost" --backend cuda "$repo/$s" 2>&1)
    rc=$?
    echo "$out" > "$work/out/$name.txt"
    case $rc in 0) echo "passed $s";; 77) echo "na $s";; *) echo "failed $s";; esac
  }
  export -f run_one
  start=$(date +%s)
  xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} < "$list" > "$work/results.txt"
  took=$(( $(date +%s) - start ))
  report=${OUT:-/tmp}/sanitizer-$tool.txt
  python3 "$repo/scripts/gpu/sanitizer_report.py" "$work" "$tool" "$took" "$jobs" | tee "$report"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  # Every log and test output, for a closer look here.
  [ -n "${OUT:-}" ] && tar -C "$work" -czf "$OUT/sanitizer-$tool-logs.tar.gz" logs out pids.txt results.txt
done
exit $status
