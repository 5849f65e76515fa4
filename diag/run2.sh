bash scripts/gpu/unpack.sh >/dev/null 2>&1; source /tmp/cuhost-bundle/cuhost/env.sh
repo=$PWD
fails="compile/dumps_and_warnings.py dispatch/threads_load.py ffi/gpu_callbacks.py fuzz/float_floordiv_by_zero.py fuzz/negate_in_own_width.py graphs/capture_replay.py graphs/update_args.py hostapi/deallocations.py hostapi/driver_api.py hostapi/ipc.py hostapi/managed_memory.py hostapi/memory_managers.py hostapi/module_callbacks.py hostapi/profiler_detect.py language/test_array_methods.py language/test_array_reductions.py language/test_cmath_special.py memory/close_with_live_arrays.py memory/cuda_device.py memory/cuda_roundtrip.py memory/kernel_arguments.py memory/pinned.py multigpu/gpu_collectives.py multigpu/gpu_multi_device.py plugins/test_host_library_throws.py records/test_const_record_arrays.py"
for s in $fails; do
  out=$(cd tests/scripts/$(dirname $s) && timeout 120 python3 "$repo/tests/run_script_test.py" --cuhost "$CUHOST_BIN" --backend cuda "$repo/tests/scripts/$s" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then echo "PASS $s"; elif [ $rc -eq 77 ]; then echo "N/A $s"; else echo "FAIL $s"; echo "$out" | grep -v "Warning" | grep -v "^  [A-Za-z_][A-Za-z_0-9.]*\[.*\](" | tail -n 12; fi
done
for e in allreduce_partial_sum.py halo_stencil.py; do
  out=$(cd scripts/examples && timeout 120 python3 "$repo/tests/run_script_test.py" --cuhost "$CUHOST_BIN" --backend cuda "$repo/scripts/examples/$e" 2>&1); rc=$?
  echo "rc=$rc example $e"; [ $rc -ne 0 ] && echo "$out" | grep -v Warning | tail -n 8
done
echo "=== numba-cuda on the same scripts"
for s in fuzz/negate_in_own_width.py fuzz/float_floordiv_by_zero.py memory/cuda_roundtrip.py language/test_array_reductions.py dispatch/threads_load.py language/test_cmath_special.py; do
  echo "--- numba-cuda $s"; (cd tests/scripts/$(dirname $s) && timeout 120 python3 -W ignore $(basename $s) 2>&1 | tail -n 4)
done
