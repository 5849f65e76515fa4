# The one cache path in front of the pipeline (runtime/compile_lookup.h),
# seen from processes: a second process finds a cache=True kernel in its
# files and runs it without compiling (no typing stage; stats count a hit
# and _lookup_counts names the layer), a changed source file misses (and results follow it), a
# damaged or foreign data file is refused with the lookup's message and
# compiled again. On the CUDA backend (in CI over the null driver) the
# engine's content-keyed cache holds GPU kernels too, and a cache=True data
# file is that very entry: either layer serves the other's entry.
# stdout: cache lookup ok
import glob
import json
import os
import subprocess
import sys
import tempfile
import textwrap

from numba import cuda

GPU = cuda.backend() == "cuda"
MODULE = textwrap.dedent('''
    import json
    import numpy as np
    from numba import cuda

    @cuda.jit(cache=True)
    def scale(out, x, a):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] * a + OFFSET

    OFFSET = 1

    def run(dtype, seed):
        rng = np.random.default_rng(seed)
        x = rng.integers(-10**6, 10**6, 64).astype(dtype)
        out = np.zeros(64, dtype)
        scale[1, 64](out, x, dtype(3))
        if cuda.backend() == "cpu":  # the null driver runs no kernel
            assert np.array_equal(out, x * 3 + OFFSET), (dtype, out[:4], (x * 3 + OFFSET)[:4])

    def report():
        st = scale.stats
        layers = [counts for _, counts in scale._lookup_counts()]
        print(json.dumps({"hits": sum(st.cache_hits.values()), "misses": sum(st.cache_misses.values()),
                          "hit_sigs": sorted(str(s) for s in st.cache_hits), "layers": layers}))
''')

folder = tempfile.mkdtemp()
source = os.path.join(folder, "cached_lookup.py")
with open(source, "w") as f:
    f.write(MODULE)
pycache = os.path.join(folder, "__pycache__")
engine_cache = os.path.join(folder, "engine-cache")


def child(seed):
    """Runs both specializations in a new process; its report and stderr."""
    code = ("import sys\nsys.path.insert(0, %r)\nimport numpy as np\nimport cached_lookup as m\n"
            "m.run(np.int64, %d)\nm.run(np.float64, %d)\nm.report()\n" % (folder, seed, seed + 1))
    env = dict(os.environ, CUHOST_CACHE_DIR=engine_cache)
    p = subprocess.run([sys.executable, "--verbose", "-c", code], capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


def compiled(stderr):
    return "[scale] typing" in stderr


def data_files():
    return sorted(glob.glob(os.path.join(pycache, "*.nbc")))


def engine_entries():
    return sorted(glob.glob(os.path.join(engine_cache, "**", "*.bin"), recursive=True))


def contents(paths):
    out = []
    for p in paths:
        with open(p, "rb") as f:
            out.append(f.read())
    return sorted(out)


# A first process compiles both specializations: two misses, both saved.
report, err = child(1)
assert (report["hits"], report["misses"]) == (0, 2) and compiled(err), report
ints, floats = data_files()

# A second process loads both from the cache=True files, compiling nothing.
report, err = child(2)
assert (report["hits"], report["misses"]) == (2, 0), report
assert not compiled(err), err
assert report["hit_sigs"] == ["(array(float64, 1d, C), array(float64, 1d, C), float64)",
                              "(array(int64, 1d, C), array(int64, 1d, C), int64)"], report
assert report["layers"] == [{"memory": 0, "cache files": 1, "disk": 0, "compiled": 0}] * 2, report

# Every data file is an entry of the engine's own format; on the GPU the
# content-keyed cache holds the very same entries, so each layer serves the
# other's: without the engine's entries the files serve, and without the
# files the engine's entries serve (still no compile; stats count misses, as
# numba, which would have compiled) and are written back.
assert all(c.startswith(b"cuhost-kernel-cache-") for c in contents(data_files()))
if GPU:
    assert contents(engine_entries()) == contents(data_files())
    for name in os.listdir(pycache):
        os.remove(os.path.join(pycache, name))
    report, err = child(3)
    # numba's counts: a kernel not loaded from the cache=True files is a miss,
    # though the engine's entry spared the compile.
    assert (report["hits"], report["misses"]) == (0, 2) and not compiled(err), (report, err)
    assert report["layers"] == [{"memory": 0, "cache files": 0, "disk": 1, "compiled": 0}] * 2, report
    assert contents(engine_entries()) == contents(data_files())
    ints, floats = data_files()
    for entry in engine_entries():
        os.remove(entry)
    report, err = child(4)
    assert (report["hits"], report["misses"]) == (2, 0) and not compiled(err), (report, err)

# A flipped byte: refused with the lookup's message, compiled again (a miss), saved again.
for entry in engine_entries():
    os.remove(entry)
with open(ints, "rb") as f:
    good = f.read()
damaged = bytearray(good)
damaged[len(damaged) // 2] ^= 0x20
with open(ints, "wb") as f:
    f.write(bytes(damaged))
report, err = child(5)
assert "[scale] cache=True entry rejected (content digest mismatch); recompiling" in err, err
assert (report["hits"], report["misses"]) == (1, 1), report
with open(ints, "rb") as f:
    assert f.read() != bytes(damaged)

# The float64 kernel's entry copied over the int64 one's: framed for another kernel, refused.
for entry in engine_entries():
    os.remove(entry)
with open(floats, "rb") as f:
    float_entry = f.read()
with open(ints, "wb") as f:
    f.write(float_entry)
report, err = child(6)
assert "[scale] cache=True entry rejected (holds another kernel); recompiling" in err, err
assert (report["hits"], report["misses"]) == (1, 1), report

# Editing the source file makes its cache=True entries stale, and the
# kernel's global changed with it: both compiled again, giving x * 3 + 2.
with open(source, "a") as f:
    f.write("\nOFFSET = 2\n")
report, err = child(7)
assert (report["hits"], report["misses"]) == (0, 2) and compiled(err), report
print("cache lookup ok")
