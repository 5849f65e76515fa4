# The on-disk kernel cache never loads a damaged or foreign entry: an entry
# truncated, with one bit flipped, or replaced by another kernel's entry is
# rejected (content digest, stored key), removed and recompiled; an intact one
# is loaded. Four processes sharing one cache folder, compiling the same and
# different kernels at once, all finish with their own kernels and leave one
# intact entry per kernel. Runs on the CUDA backend (the cache holds NVPTX
# kernels; in CI over the null driver).
# backends: cuda
# stdout: cache integrity ok
import glob
import os
import subprocess
import sys
import tempfile

KERNEL = """
import numpy as np
from numba import cuda

@cuda.jit
def {name}(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * {factor} + 1

x = cuda.to_device(np.arange(64, dtype=np.float32))
out = cuda.device_array(64, dtype=np.float32)
{name}[1, 64](out, x)
cuda.synchronize()
print("ran {name}")
"""


def run(cache, name, factor=2.0):
    env = dict(os.environ, CUHOST_CACHE_DIR=cache)
    code = KERNEL.format(name=name, factor=factor)
    p = subprocess.run([sys.executable, "--verbose", "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    assert "ran %s" % name in p.stdout, p.stdout
    return p.stderr


def entries(cache):
    return sorted(glob.glob(os.path.join(cache, "kernels", "*.bin")))


def loaded(log):
    return "loaded from the kernel cache" in log


with tempfile.TemporaryDirectory() as cache:
    first = run(cache, "scale")
    assert not loaded(first), first
    (entry,) = entries(cache)
    assert loaded(run(cache, "scale")), "an intact entry is loaded"
    intact = open(entry, "rb").read()

    def damaged(data, why):
        with open(entry, "wb") as f:
            f.write(data)
        log = run(cache, "scale")
        assert not loaded(log), (why, log)
        assert "rejected (%s)" % why in log, (why, log)
        # The rejected entry was replaced by a fresh, intact one.
        assert open(entry, "rb").read() == intact, why
        assert loaded(run(cache, "scale")), why

    damaged(intact[: len(intact) // 2], "content digest mismatch")
    damaged(intact[:10], "truncated")
    middle = len(intact) // 2
    flipped = intact[:middle] + bytes([intact[middle] ^ 0x10]) + intact[middle + 1:]
    damaged(flipped, "content digest mismatch")

    # Another kernel's complete entry copied over this one: its digest holds,
    # but it was stored for another key.
    run(cache, "shift", factor=3.0)
    other = [e for e in entries(cache) if e != entry]
    assert len(other) == 1, entries(cache)
    damaged(open(other[0], "rb").read(), "holds another kernel")

with tempfile.TemporaryDirectory() as cache:
    # Four processes at once: two compile the same kernel, two others each
    # their own. Entries are written atomically, so every reader sees a whole
    # entry or none.
    names = ["same", "same", "other_a", "other_b"]
    env = dict(os.environ, CUHOST_CACHE_DIR=cache)
    procs = [subprocess.Popen([sys.executable, "--verbose", "-c", KERNEL.format(name=n, factor=float(i + 2))],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i, n in enumerate(names)]
    for n, p in zip(names, procs):
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0 and "ran %s" % n in out, (n, p.returncode, out, err)
    # "same" was compiled with two factors (2.0 and 3.0): two different
    # kernels, so four entries, each loaded intact by a later process.
    assert len(entries(cache)) == 4, entries(cache)
    for i, n in enumerate(names):
        log = subprocess.run([sys.executable, "--verbose", "-c", KERNEL.format(name=n, factor=float(i + 2))],
                             env=env, capture_output=True, text=True, timeout=120).stderr
        assert loaded(log) and "rejected" not in log, (n, log)

print("cache integrity ok")
