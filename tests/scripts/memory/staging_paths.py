# Runs the copy, indexing and launch-staging scripts again with the GPU copy
# paths forced on (strided device views updated through host staging of the
# bytes they span), so those paths are checked on the CPU backend too.
# stdout: roundtrip ok
# stdout: indexing ok
# stdout: staging ok
# stdout: staging paths ok
import os
import runpy

import _cuhost

here = os.path.dirname(os.path.abspath(__file__))
_cuhost._force_staging_for_test(True)
try:
    for name in ("roundtrip.py", "indexing.py", "launch_staging.py"):
        runpy.run_path(os.path.join(here, name), run_name="__main__")
finally:
    _cuhost._force_staging_for_test(False)
print("staging paths ok")
