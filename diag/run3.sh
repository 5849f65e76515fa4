echo "=== numba-cuda on cuhost's scripts (python3)"
for s in fuzz/negate_in_own_width.py fuzz/float_floordiv_by_zero.py records/test_const_record_arrays.py language/test_array_reductions.py; do
  echo "--- numba-cuda $s"
  (cd tests/scripts/$(dirname $s) && timeout 120 python3 -W ignore -c "import numpy as np, runpy, sys; np.row_stack = np.vstack; sys.argv = ['$(basename $s)']; runpy.run_path('$(basename $s)', run_name='__main__')" 2>&1 | tail -n 3 | cut -c1-600)
done
