# numba.njit(cache=True) through the one cache path (runtime/compile_lookup.h):
# specializations are kept in numba's files in the source's __pycache__
# (an index and a data file per specialization), which a second process
# loads instead of compiling (no typing), with numba's stats (a hit per
# loaded signature, a miss per compiled one, cache_path the folder) and
# numba's rule that a cached function keeps the global values it was
# compiled with until its source file changes. Results are checked against
# NumPy on random data in every process; without cache=True every process
# compiles, as numba's.
# stdout: njit cache ok
import glob
import json
import os
import subprocess
import sys
import tempfile
import textwrap

MODULE = textwrap.dedent('''
    import json
    import numpy as np
    import numba
    import njit_settings

    @numba.njit(cache=True)
    def weighted(a, w):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * w + i
        return s * njit_settings.SCALE

    @numba.njit
    def plain(a):
        return a.sum() * 2

    def run(seed, scale):
        rng = np.random.default_rng(seed)
        a = rng.standard_normal(97)
        w = float(rng.uniform(0.5, 2.0))
        assert np.isclose(weighted(a, w), (a * w + np.arange(97)).sum() * scale)
        ai = rng.integers(-1000, 1000, 31)
        assert weighted(ai, 3) == (ai * 3 + np.arange(31)).sum() * scale
        assert np.isclose(plain(a), a.sum() * 2)
        st = weighted.stats
        print(json.dumps({"hits": sorted(str(s) for s in st.cache_hits),
                          "misses": sorted(str(s) for s in st.cache_misses),
                          "plain_misses": sum(plain.stats.cache_misses.values()),
                          "path": st.cache_path, "plain_path": plain.stats.cache_path}))
''')

folder = tempfile.mkdtemp()
source = os.path.join(folder, "cached_njit.py")
with open(source, "w") as f:
    f.write(MODULE)
pycache = os.path.join(folder, "__pycache__")


def settings(scale):
    with open(os.path.join(folder, "njit_settings.py"), "w") as f:
        f.write("SCALE = %d\n" % scale)


def child(seed, scale):
    code = "import sys\nsys.path.insert(0, %r)\nimport cached_njit as m\nm.run(%d, %d)\n" % (folder, seed, scale)
    p = subprocess.run([sys.executable, "--verbose", "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


def served(stderr, function):
    return [line.split(" served by ")[1] for line in stderr.splitlines()
            if "[%s] host function served by" % function in line]


settings(2)
first, err1 = child(1, 2)
assert served(err1, "weighted") == ["compiled", "compiled"], err1
assert first["hits"] == [] and len(first["misses"]) == 2, first
assert first["path"] == pycache and first["plain_path"] is None and first["plain_misses"] == 1, first
assert len(glob.glob(os.path.join(pycache, "cached_njit.weighted-*.nbi"))) == 1, os.listdir(pycache)
assert len(glob.glob(os.path.join(pycache, "cached_njit.weighted-*.nbc"))) == 2, os.listdir(pycache)

# A second process loads both specializations; the global it was compiled
# with stays (numba's rule), though njit_settings now says 5.
settings(5)
second, err2 = child(2, 2)
assert served(err2, "weighted") == ["cache files", "cache files"], err2
assert "[weighted] typing" not in err2 and "[plain] typing" in err2
assert second["hits"] == first["misses"] and second["misses"] == [], second
assert served(err2, "plain") == ["compiled"] and second["plain_misses"] == 1

# An edited source file makes the index stale: compiled again, with today's global.
with open(source) as f:
    text = f.read()
with open(source, "w") as f:
    f.write(text.replace("import json\n", "import json  # edited\n", 1))
third, err3 = child(3, 5)
assert served(err3, "weighted") == ["compiled", "compiled"], err3
assert third["hits"] == [] and len(third["misses"]) == 2, third
print("njit cache ok")
