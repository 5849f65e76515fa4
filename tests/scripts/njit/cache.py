# numba.njit(cache=True) through the one cache path (runtime/compile_lookup.h):
# a second process loads each specialization from the engine's content-keyed
# disk cache (no typing), with numba's stats (a hit per loaded signature, a
# miss per compiled one); results checked against NumPy on random data in
# both processes; without cache=True every process compiles, as numba's; an
# edited source file is compiled again.
# stdout: njit cache ok
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

    @numba.njit(cache=True)
    def weighted(a, w):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * w + i
        return s

    @numba.njit
    def plain(a):
        return a.sum() * SCALE

    SCALE = 2

    def run(seed):
        rng = np.random.default_rng(seed)
        a = rng.standard_normal(97)
        w = float(rng.uniform(0.5, 2.0))
        assert np.isclose(weighted(a, w), (a * w + np.arange(97)).sum())
        ai = rng.integers(-1000, 1000, 31)
        assert weighted(ai, 3) == (ai * 3 + np.arange(31)).sum()
        assert np.isclose(plain(a), a.sum() * SCALE)
        st = weighted.stats
        print(json.dumps({"hits": sorted(str(s) for s in st.cache_hits),
                          "misses": sorted(str(s) for s in st.cache_misses),
                          "plain_misses": sum(plain.stats.cache_misses.values()),
                          "path": st.cache_path is not None, "plain_path": plain.stats.cache_path}))
''')

folder = tempfile.mkdtemp()
source = os.path.join(folder, "cached_njit.py")
with open(source, "w") as f:
    f.write(MODULE)
engine_cache = os.path.join(folder, "engine-cache")


def child(seed):
    code = "import sys\nsys.path.insert(0, %r)\nimport cached_njit as m\nm.run(%d)\n" % (folder, seed)
    p = subprocess.run([sys.executable, "--verbose", "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, CUHOST_CACHE_DIR=engine_cache))
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


def served(stderr, function):
    return [line.split(" served by ")[1] for line in stderr.splitlines()
            if "[%s] host function served by" % function in line]


first, err1 = child(1)
assert served(err1, "weighted") == ["compiled", "compiled"], err1
assert first["hits"] == [] and len(first["misses"]) == 2, first
assert first["path"] and first["plain_path"] is None and first["plain_misses"] == 1, first

second, err2 = child(2)
assert served(err2, "weighted") == ["disk", "disk"], err2
assert "[weighted] typing" not in err2 and "[plain] typing" in err2
assert second["hits"] == first["misses"] and second["misses"] == [], second
assert served(err2, "plain") == ["compiled"] and second["plain_misses"] == 1

# An edited function is another entry: compiled, and its new result returned.
with open(source) as f:
    text = f.read()
with open(source, "w") as f:
    f.write(text.replace("s += a[i] * w + i", "s += a[i] * w + i + 0.0").replace(
        "(a * w + np.arange(97))", "(a * w + np.arange(97) + 0.0)"))
third, err3 = child(3)
assert served(err3, "weighted") == ["compiled", "compiled"], err3
print("njit cache ok")
