# A .cu source named by cuda.declare_device starts compiling (clang, for the
# device's NVPTX) when it is declared, on a worker thread, and the kernel's
# first call uses that compile instead of starting clang again: the bitcode
# is in the cache before any kernel is called, -v shows one compile "started
# at declaration" and none at the call, and the kernel gives the right
# result. A second process finds the compile in the disk cache (no clang at
# all); with CUHOST_INLINE_CU=0 nothing is compiled ahead. Runs on the CUDA
# backend (in CI over the null driver, where kernels do not run).
# backends: cuda
# stdout: compile ahead ok
import glob
import os
import subprocess
import sys
import tempfile

CHILD = """
import glob, os, time
import numpy as np
from numba import cuda

mul = cuda.declare_device("mul_ahead", "float32(float32, float32)", link={path!r})
if {expect_ahead}:
    deadline = time.time() + 120
    while not glob.glob(os.path.join(os.environ["CUHOST_CACHE_DIR"], "device-cxx", "*.bc")):
        assert time.time() < deadline, "nothing compiled after the declaration"
        time.sleep(0.005)
    print("compiled before the first call")

@cuda.jit
def square(r, a):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = mul(a[i], a[i])

a = np.random.default_rng(7).random(64, dtype=np.float32) + 0.5
r = cuda.device_array(64, np.float32)
square[1, 64](r, cuda.to_device(a))
out = r.copy_to_host()
null = cuda.get_current_device().name in (b"cuhost null driver", "cuhost null driver")
if not null:
    np.testing.assert_array_equal(out, a * a)
print("ran")
"""

SOURCE = 'extern "C" __device__ int mul_ahead(float* r, float x, float y) { *r = x * y; return 0; }\n'


def run(cache, path, expect_ahead, **env):
    env = dict(os.environ, CUHOST_CACHE_DIR=cache, **env)
    code = CHILD.format(path=path, expect_ahead=expect_ahead)
    p = subprocess.run([sys.executable, "--verbose", "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    assert "ran" in p.stdout, p.stdout
    return p.stdout, [line for line in p.stderr.splitlines() if "mul_ahead.cu]" in line]


with tempfile.TemporaryDirectory() as work:
    path = os.path.join(work, "mul_ahead.cu")
    with open(path, "w") as f:
        f.write(SOURCE)

    cache = os.path.join(work, "cache")
    out, log = run(cache, path, True)
    assert "compiled before the first call" in out, out
    compiles = [line for line in log if " clang" in line]
    assert len(compiles) == 1 and "clang (started at declaration)" in compiles[0], log
    assert any("inlined into the kernel" in line for line in log), log
    assert len(glob.glob(os.path.join(cache, "device-cxx", "*.bc"))) == 1

    # The next process: the disk cache has the compile (read ahead too, and
    # the kernel itself comes from the kernel cache); clang never runs.
    out, log = run(cache, path, True)
    assert "compiled before the first call" in out, out
    assert not [line for line in log if " clang" in line], log

    # Inlining off: nothing is compiled ahead, and nothing with clang at all.
    cold = os.path.join(work, "cold")
    out, log = run(cold, path, False, CUHOST_INLINE_CU="0")
    assert not glob.glob(os.path.join(cold, "device-cxx", "*.bc")), os.listdir(cold)
    assert not [line for line in log if " clang" in line], log

print("compile ahead ok")
