# Whether kernels carry cancellation points is part of the on-disk kernel
# cache's key: a kernel cached by a process without --kernel-timeout is not
# loaded by one with it (which would then run kernels it cannot stop), nor
# the other way round; each finds its own entry afterwards. Child processes
# share one cache folder; the option reaches them as CUHOST_KERNEL_TIMEOUT.
# A launch under a per-launch deadline (cuhost.kernel_deadline) in a process
# without the option uses the same entry as the option's processes.
# Runs on the CUDA backend (the cache holds NVPTX kernels; in CI over the
# null driver).
# backends: cuda
# stdout: deadline cache key ok
import os
import subprocess
import sys
import tempfile

KERNEL = """
import numpy as np
from numba import cuda

@cuda.jit
def prefix_total(out, x):
    i = cuda.grid(1)
    if i < out.size:
        acc = 0.0
        for j in range(i + 1):
            acc += x[j]
        out[i] = acc

x = cuda.to_device(np.arange(64, dtype=np.float64))
out = cuda.device_array(64)
prefix_total[1, 64](out, x)
cuda.synchronize()
(ptx,) = prefix_total.inspect_asm().values()
print("points" if "cuhost_gpu_cancel_flag" in ptx else "no points")
"""


# The same launch and inspection inside a per-launch deadline block, in a
# process without the option: the variant with points, under the same key.
PER_LAUNCH = KERNEL.replace("prefix_total[1, 64](out, x)\ncuda.synchronize()\n(ptx,) = prefix_total.inspect_asm().values()",
                            "import cuhost\nwith cuhost.kernel_deadline(5):\n    prefix_total[1, 64](out, x)\n"
                            "    cuda.synchronize()\n    (ptx,) = prefix_total.inspect_asm().values()")
assert PER_LAUNCH != KERNEL


def run(cache, timeout, source=KERNEL):
    env = dict(os.environ, CUHOST_CACHE_DIR=cache)
    env.pop("CUHOST_KERNEL_TIMEOUT", None)
    if timeout:
        env["CUHOST_KERNEL_TIMEOUT"] = timeout
    p = subprocess.run([sys.executable, "--verbose", "-c", source], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    return p.stdout.strip().splitlines()[-1], "loaded from the kernel cache" in p.stderr


with tempfile.TemporaryDirectory() as cache:
    assert run(cache, None) == ("no points", False)
    assert run(cache, "5") == ("points", False)  # the entry without points is not taken
    assert run(cache, "5") == ("points", True)
    assert run(cache, None) == ("no points", True)
    assert run(cache, None, PER_LAUNCH) == ("points", True)  # the entry the option's process made
with tempfile.TemporaryDirectory() as cache:
    assert run(cache, None, PER_LAUNCH) == ("points", False)
    assert run(cache, "5") == ("points", True)
    assert run(cache, None) == ("no points", False)
print("deadline cache key ok")
