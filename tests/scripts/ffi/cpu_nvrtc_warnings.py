# backends: cpu
# On the CPU backend a linked .cu source is also checked by NVRTC, so its
# warnings reach the script as the GPU build's do: one UserWarning
# "NVRTC log messages: ..." carrying NVRTC's log; a source both compilers
# reject raises NVRTC's error.
# stdout: cpu nvrtc warnings ok
import os
import tempfile
import warnings

import numpy as np
from numba import cuda

folder = tempfile.mkdtemp()
os.environ["CUHOST_CACHE_DIR"] = os.path.join(folder, "cache")  # a cached compile reports no log again
warn_cu = os.path.join(folder, "warn_once.cu")
with open(warn_cu, "w") as f:
    f.write('extern "C" __device__ int twice(int* out, int a) {\n  int unused;\n  *out = 2 * a;\n  return 0;\n}\n')
twice = cuda.declare_device("twice", "int32(int32)", link=[warn_cu])

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")

    @cuda.jit(link=[warn_cu])
    def k(r, x):
        i = cuda.grid(1)
        if i < len(r):
            r[i] = twice(x[i])

    x = np.arange(16, dtype=np.int32)
    r = np.zeros_like(x)
    k[1, 16](r, x)
np.testing.assert_array_equal(r, 2 * x)
logs = [w for w in caught if "NVRTC log messages" in str(w.message)]
assert len(logs) == 1 and issubclass(logs[0].category, UserWarning), [str(w.message) for w in caught]
assert "declared but never referenced" in str(logs[0].message), str(logs[0].message)

bad_cu = os.path.join(folder, "bad.cu")
with open(bad_cu, "w") as f:
    f.write('extern "C" __device__ int broken(int* out, int a) { SYNTAX; return 0; }\n')
broken = cuda.declare_device("broken", "int32(int32)", link=[bad_cu])
try:

    @cuda.jit
    def kb(r):
        r[0] = broken(1)

    kb[1, 1](np.zeros(1, np.int32))
    raise SystemExit("a source NVRTC rejects was accepted")
except cuda.NvrtcError as e:
    assert 'identifier "SYNTAX" is undefined' in str(e), str(e)
# A second process finds NVRTC's output in the disk cache and still warns once.
import subprocess
import sys

child = subprocess.run([sys.executable, "-c", f'''
import warnings
import numpy as np
from numba import cuda
twice = cuda.declare_device("twice", "int32(int32)", link=[{warn_cu!r}])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    @cuda.jit(link=[{warn_cu!r}])
    def k(r, x):
        r[0] = twice(x[0])
    k[1, 1](np.zeros(1, np.int32), np.ones(1, np.int32))
print(sum("NVRTC log messages" in str(w.message) for w in caught))
'''], capture_output=True, text=True, env=dict(os.environ))
assert child.returncode == 0 and child.stdout.strip() == "1", (child.stdout, child.stderr)
print("cpu nvrtc warnings ok")
