# The on-disk kernel cache is written and read only where no one but its
# owner can write: the folders cuhost makes are 0700 and its entries 0600,
# and a second process loads the entry; a cache folder writable by its
# group or all users, below a folder others may write without the sticky
# bit, or owned by another user is not used - one warning names it and why,
# kernels still compile and run, and the entry there is neither read nor
# rewritten; a symbolic link planted at an entry's path is not followed (its
# target stays untouched) and is replaced by a real entry. Runs on the CUDA
# backend (the cache holds NVPTX kernels; in CI over the null driver).
# backends: cuda
# stdout: cache owner only ok
import glob
import os
import pwd
import stat
import subprocess
import sys
import tempfile

KERNEL = """
import numpy as np
from numba import cuda

@cuda.jit
def scale(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * 3 + 1

x = cuda.to_device(np.arange(64, dtype=np.float32))
out = cuda.device_array(64, dtype=np.float32)
scale[1, 64](out, x)
cuda.synchronize()
print("ran scale")
"""


def run(cache):
    env = dict(os.environ, CUHOST_CACHE_DIR=cache)
    p = subprocess.run([sys.executable, "--verbose", "-c", KERNEL], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and "ran scale" in p.stdout, (p.returncode, p.stdout, p.stderr)
    return p.stderr


def loaded(log):
    return "loaded from the kernel cache" in log


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def warning(folder, why):
    return ("cuhost: warning: not using the cache folder %s: %s; compiled code is cached in memory only "
            "(make the folder yours with mode 0700, or set CUHOST_CACHE_DIR)" % (folder, why))


with tempfile.TemporaryDirectory() as top:
    cache = os.path.join(top, "cache")
    kernels = os.path.join(cache, "kernels")
    log = run(cache)
    assert not loaded(log) and "warning" not in log, log
    assert mode(cache) == 0o700 and mode(kernels) == 0o700, (oct(mode(cache)), oct(mode(kernels)))
    (entry,) = glob.glob(os.path.join(kernels, "*.bin"))
    assert mode(entry) == 0o600, oct(mode(entry))
    assert not [f for f in os.listdir(kernels) if ".tmp" in f], os.listdir(kernels)
    assert loaded(run(cache)), "the entry is loaded by the next process"
    original = open(entry, "rb").read()
    stamp = os.stat(entry).st_mtime_ns

    def refused(folder, why):
        log = run(cache)
        assert not loaded(log), log
        assert log.count(warning(folder, why)) == 1, log  # once per folder (the cubin cache's may warn too)
        assert open(entry, "rb").read() == original and os.stat(entry).st_mtime_ns == stamp

    os.chmod(kernels, 0o777)
    refused(kernels, "it is writable by its group and all users (mode 0777)")
    os.chmod(kernels, 0o720)
    refused(kernels, "it is writable by its group (mode 0720)")
    os.chmod(kernels, 0o700)
    os.chmod(cache, 0o757)
    refused(kernels, "the folder above it, %s, is writable by all users without the sticky bit (mode 0757)" % cache)
    os.chmod(cache, 0o700)
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        os.chown(kernels, nobody.pw_uid, nobody.pw_gid)
        refused(kernels, "it belongs to another user (uid %d; cuhost runs as uid 0)" % nobody.pw_uid)
        os.chown(kernels, 0, 0)
    assert loaded(run(cache)), "trusted again, the entry is loaded"

    # A symbolic link planted at the entry's path: not read, not written through.
    victim = os.path.join(top, "victim.bin")
    with open(victim, "wb") as f:
        f.write(b"precious")
    os.remove(entry)
    os.symlink(victim, entry)
    log = run(cache)
    assert not loaded(log), log
    assert open(victim, "rb").read() == b"precious"
    assert os.path.isfile(entry) and not os.path.islink(entry)
    assert loaded(run(cache))
print("cache owner only ok")
