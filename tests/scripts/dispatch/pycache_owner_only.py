# @cuda.jit(cache=True) loads pickled index files, so its cache folders must
# be writable by their owner only, as cuhost's own caches: a __pycache__
# beside the source that its group or all users may write is not used - one
# warning names it and why, and the user-wide folder (~/.cache/cuhost/numba)
# is used instead; when that one is refused too, nothing is cached and the
# kernel still gives NumPy's results. $NUMBA_CACHE_DIR, when set, comes
# before __pycache__ (numba's order of cache locators).
# stdout: pycache owner only ok
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

MODULE = textwrap.dedent('''
    import numpy as np
    from numba import cuda

    @cuda.jit(cache=True)
    def axpy(out, a, x, y):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * x[i] + y[i]

    def run():
        rng = np.random.default_rng(9)
        x, y = rng.standard_normal(100), rng.standard_normal(100)
        out = np.zeros(100)
        axpy[1, 128](out, 1.5, x, y)
        assert np.allclose(out, 1.5 * x + y)
        print(sum(axpy.stats.cache_hits.values()), axpy.stats.cache_path)
''')

top = tempfile.mkdtemp()
source_dir = os.path.join(top, "src")
os.mkdir(source_dir)
with open(os.path.join(source_dir, "cached_axpy.py"), "w") as f:
    f.write(MODULE)
pycache = os.path.join(source_dir, "__pycache__")
os.mkdir(pycache)
home = os.path.join(top, "home")
os.mkdir(home, 0o700)
user_wide = os.path.join(home, ".cache", "cuhost", "numba")
provided = os.path.join(top, "numba-cache-dir")


def child(cache_dir=None):
    env = dict(os.environ, HOME=home)
    env.pop("NUMBA_CACHE_DIR", None)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    code = "import sys\nsys.path.insert(0, %r)\nimport cached_axpy as m\nm.run()" % source_dir
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    hits, path = p.stdout.split()
    return int(hits), path, p.stderr


def warning(folder, why):
    return "cuhost: warning: not using the cache folder %s: %s; cache=True kernels are not cached there" % (
        folder, why)


os.chmod(pycache, 0o777)
hits, path, err = child()
assert hits == 0 and path.startswith(user_wide + os.sep), (hits, path, err)
assert err.count(warning(pycache, "it is writable by other users (mode 0777)")) == 1, err
hits, path, err = child()
assert hits == 1 and path.startswith(user_wide + os.sep), (hits, path, err)  # loaded from the user-wide folder
assert not [n for n in os.listdir(pycache) if n.endswith((".nbi", ".nbc"))]

# Both refused: compiled each time, never cached.
folder = path
os.chmod(folder, 0o770)
hits, path, err = child()
assert hits == 0 and path == "None", (hits, path, err)
assert warning(folder, "it is writable by other users (mode 0770)") in err, err
hits, path, err = child()
assert hits == 0 and path == "None", (hits, path, err)

# Private again: __pycache__ is used.
os.chmod(pycache, 0o700)
hits, path, err = child()
assert path == pycache and "warning" not in err, (path, err)
hits, path, err = child()
assert hits == 1 and path == pycache, (hits, path)

# $NUMBA_CACHE_DIR set: it is used though __pycache__ is usable.
hits, path, err = child(provided)
assert hits == 0 and path.startswith(provided + os.sep), (hits, path, err)
hits, path, err = child(provided)
assert hits == 1 and path.startswith(provided + os.sep), (hits, path, err)
shutil.rmtree(top)
print("pycache owner only ok")
