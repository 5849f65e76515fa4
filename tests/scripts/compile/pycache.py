# @cuda.jit(cache=True): numba's cache files in the source's __pycache__ (one
# .nbi index per function, one .nbc data file per specialization), loaded by
# later processes instead of compiling (counted in stats.cache_hits), kept
# until the source file changes or recompile() replaces them; closures with
# different captured values are different entries; global values are not
# part of the key (numba's rule); kernels that link files cannot be cached.
# stdout: pycache ok
import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
from numba import cuda

MODULE = textwrap.dedent('''
    import numpy as np
    from numba import cuda

    @cuda.jit(cache=True)
    def add(r, x, y):
        r[0] = x[0] + y[0] + Z

    Z = 1

    def make(k):
        @cuda.jit(cache=True)
        def scaled(r, x):
            r[0] = x[0] * k
        return scaled

    twice, thrice = make(2), make(3)

    def run_add(x, y):
        r = np.zeros(1, np.asarray(x).dtype)
        add[1, 1](r, np.array([x]), np.array([y]))
        return r[0]

    def run(f, x):
        r = np.zeros(1, np.int64)
        f[1, 1](r, np.array([x]))
        return r[0]
''')

folder = tempfile.mkdtemp()
path = os.path.join(folder, "cached_mod.py")
with open(path, "w") as f:
    f.write(MODULE)
pycache = os.path.join(folder, "__pycache__")


def cache_files():
    try:
        return sorted(n for n in os.listdir(pycache) if not n.endswith(".pyc"))
    except FileNotFoundError:
        return []


def child(code):
    """Runs `code` in a new process with the module importable; returns its stdout lines."""
    script = "import sys\nsys.path.insert(0, %r)\nimport cached_mod as m\n%s" % (folder, code)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


hits = "print(sum(m.add.stats.cache_hits.values()), sum(m.add.stats.cache_misses.values()))"
assert cache_files() == []
assert child("print(m.run_add(2, 3))\nprint(m.run_add(2.5, 3.0))\n" + hits) == ["6", "6.5", "0", "2"]
files = cache_files()
assert len(files) == 3 and sum(n.endswith(".nbi") for n in files) == 1, files
stamps = {n: os.path.getmtime(os.path.join(pycache, n)) for n in files}

# A new process loads both specializations and writes nothing.
assert child("print(m.run_add(2, 3))\nprint(m.run_add(2.5, 3.0))\n" + hits) == ["6", "6.5", "2", "0"]
assert {n: os.path.getmtime(os.path.join(pycache, n)) for n in cache_files()} == stamps

# Globals are frozen into the cached kernel: changing Z keeps the cached
# result until recompile(), whose kernel then replaces the saved one.
out = child("m.Z = 10\nprint(m.run_add(2, 3))\nm.add.recompile()\nprint(m.run_add(2, 3))")
assert out == ["6", "15"], out
assert child("print(m.run_add(2, 3))") == ["15"]

# Closures over different values are different entries of one index.
assert child("print(m.run(m.twice, 5), m.run(m.thrice, 5))") == ["10", "15"]
assert child("print(m.run(m.twice, 5), m.run(m.thrice, 5), sum(m.twice.stats.cache_hits.values()))") == \
    ["10", "15", "1"]
assert sum(n.endswith(".nbi") for n in cache_files()) == 2, cache_files()

# Editing the source file makes its entries stale.
with open(path, "a") as f:
    f.write("\nZ = 100\n")
assert child("print(m.run_add(2, 3))\n" + hits) == ["105", "0", "1"]

# Linked files cannot travel with a cached kernel.
try:
    cuda.jit("void()", cache=True, link=["x.ptx"])
except RuntimeError as e:
    assert "Cannot pickle CUDACodeLibrary with linking files" in str(e), str(e)
else:
    raise AssertionError("cache=True with link= accepted")
print("pycache ok")
