# @cuda.jit(cache=True) data files are entries of the engine's disk-cache
# format (runtime/compile_cache.h: framed by the key they were written for
# and a digest): a data file with a flipped byte, or one specialization's
# file copied over another's, is refused - the kernel is compiled again
# (a miss, not a hit), gives NumPy's results, and its file is written anew,
# so the next process loads it.
# stdout: pycache damaged ok
import os
import subprocess
import sys
import tempfile
import textwrap

MODULE = textwrap.dedent('''
    import numpy as np
    from numba import cuda

    @cuda.jit(cache=True)
    def scale(out, x, a):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] * a + 1

    def run(dtype, seed):
        rng = np.random.default_rng(seed)
        # Integer values: x * a + 1 is exact in float64 too, fused (the GPU's FMA) or not.
        x = rng.integers(-10**6, 10**6, 64).astype(dtype)
        a = dtype(3)
        out = np.zeros(64, dtype)
        scale[1, 64](out, x, a)
        assert np.array_equal(out, x * a + 1), (dtype, out[:4], (x * a + 1)[:4])
        st = scale.stats
        print(sum(st.cache_hits.values()), sum(st.cache_misses.values()))
''')

folder = tempfile.mkdtemp()
with open(os.path.join(folder, "cached_scale.py"), "w") as f:
    f.write(MODULE)
pycache = os.path.join(folder, "__pycache__")


def child(code):
    script = "import sys\nsys.path.insert(0, %r)\nimport numpy as np\nimport cached_scale as m\n%s" % (folder, code)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def data_files():
    return sorted(os.path.join(pycache, n) for n in os.listdir(pycache) if n.endswith(".nbc"))


# Two specializations compiled and saved.
assert child("m.run(np.int64, 1)\nm.run(np.float64, 2)") == ["0", "1", "0", "2"]
ints, floats = data_files()
assert child("m.run(np.int64, 3)\nm.run(np.float64, 4)") == ["1", "0", "2", "0"]

# A flipped byte in the middle of the int64 kernel's file: refused, compiled again, saved again.
with open(ints, "rb") as f:
    good = f.read()
damaged = bytearray(good)
damaged[len(damaged) // 2] ^= 0x20
with open(ints, "wb") as f:
    f.write(bytes(damaged))
assert child("m.run(np.int64, 5)\nm.run(np.float64, 6)") == ["0", "1", "1", "1"]
with open(ints, "rb") as f:
    assert f.read() != bytes(damaged)
assert child("m.run(np.int64, 7)") == ["1", "0"]

# The float64 kernel's file copied over the int64 one's: refused (it was
# written for another specialization), never run on int64 data.
with open(floats, "rb") as f:
    float_entry = f.read()
with open(ints, "wb") as f:
    f.write(float_entry)
assert child("m.run(np.int64, 8)") == ["0", "1"]
assert child("m.run(np.int64, 9)\nm.run(np.float64, 10)") == ["1", "0", "2", "0"]
print("pycache damaged ok")
