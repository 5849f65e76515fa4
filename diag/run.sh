source /tmp/cuhost-bundle/cuhost/env.sh 2>/dev/null || { bash scripts/gpu/unpack.sh >/dev/null; source /tmp/cuhost-bundle/cuhost/env.sh; }
python3 diag/procs.py
which gdb
for s in memory/cuda_device.py memory/pinned.py hostapi/managed_memory.py memory/kernel_arguments.py hostapi/driver_api.py; do
  echo "=== $s"
  (cd tests/scripts/$(dirname $s) && timeout 60 cuhost -u -X faulthandler $(basename $s) 2>&1 | grep -v Warning | grep -v "^  [a-z_]*\[" | tail -25)
  echo "rc=$?"
done
