# The engine's content-keyed disk cache does not show: a process whose kernel
# comes from it sees what numba-cuda shows after compiling in that process.
# A device function's dispatcher lists the argument types of the calls a
# kernel made (numba types every kernel in every process; cuhost types a
# kernel served from the disk again for those records), inspect_types()
# shows the locals' types, and a compile that warned is not kept on disk, so
# the next process warns again. Runs on the
# CUDA backend (the disk cache holds NVPTX kernels; in CI over the null
# driver).
# backends: cuda
# stdout: disk cache transparent ok
import os
import subprocess
import sys
import tempfile

CALLS = """
import numpy as np
from numba import cuda

@cuda.jit
def helper(x):
    return x * 3 + 1

@cuda.jit
def twice(x):
    return helper(x) + helper(x + 1.5)

@cuda.jit
def kernel(r, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = helper(x[i]) + twice(y[i])

x = np.arange(40, dtype=np.int32)
y = np.linspace(0.0, 1.0, 40)
r = np.zeros(40)
kernel[1, 64](r, x, y)
print("helper", helper.signatures)
print("twice", twice.signatures)
text = kernel.inspect_types()
print("typed", "i = int64" in text and "r[i] = helper(x[i]) + twice(y[i])" in text)
print("typemap", sorted(kernel._typemap(kernel.signatures[0])) if hasattr(kernel, "_typemap") else "n/a")

@cuda.jit
def axpb(out, x, a):
    i = cuda.grid(1)
    if i < out.size:
        t = a * x[i]
        out[i] = t + 1

axpb[1, 64](r, y, 2.0)
print("plain typed", "t = float64" in axpb.inspect_types())
"""

WARNS = """
import warnings
import numpy as np
from numba import cuda
from numba.cuda.core.errors import NumbaWarning

@cuda.jit
def shout(x):
    print(%s)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    shout[1, 1](np.arange(33, dtype=np.int32))
    cuda.synchronize()
print("warnings", sum("cannot print more than 32 items" in str(w.message) for w in caught
                      if issubclass(w.category, NumbaWarning)))
""" % ", ".join("x[%d]" % i for i in range(33))  # 33 items: one more than CUDA's print takes


def run(cache, code):
    env = dict(os.environ, CUHOST_CACHE_DIR=cache)
    p = subprocess.run([sys.executable, "--verbose", "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    return p.stdout, p.stderr


with tempfile.TemporaryDirectory() as cache:
    first, log = run(cache, CALLS)
    assert "[kernel] kernel served by compiled" in log, log
    assert "helper [(int32,), (float64,)]" in first, first
    assert "twice [(float64,)]" in first, first
    assert "typed True" in first and "plain typed True" in first, first
    second, log = run(cache, CALLS)
    assert "[kernel] kernel served by disk" in log, log
    assert second == first, (first, second)

with tempfile.TemporaryDirectory() as cache:
    for attempt in range(2):
        out, log = run(cache, WARNS)
        assert "warnings 1" in out, (attempt, out, log)
        assert "[shout] kernel served by compiled" in log, (attempt, log)

print("disk cache transparent ok")
