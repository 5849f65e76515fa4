# Caching of kernels that link foreign code: cache=True is accepted with
# link items (numba refuses to pickle such kernels) and the result is right;
# compiled foreign code is stored under the cache folder keyed by content:
# the same source again adds no entry (even under another name),
# changed source adds one and is what runs.
# stdout: cache foreign ok
import os
import tempfile

import numpy as np
from numba import cuda

cache_root = tempfile.mkdtemp()
os.environ["CUHOST_CACHE_DIR"] = cache_root
# cache=True files under the same fresh folder, so a kernel an earlier run
# saved beside this file is not loaded (that would skip the foreign compile).
os.environ["NUMBA_CACHE_DIR"] = cache_root


ON_GPU = cuda.backend() == "cuda"


def entries(folders=("device-cxx", "nvrtc") if ON_GPU else ("host-cxx",)):
    """Compiled foreign code in the cache: host C++ on the CPU; on a GPU clang's
    NVPTX bitcode for sources it inlines, NVRTC output for the others. (On the
    CPU the test suite's PTX check also fills device-cxx: not counted.)"""
    found = []
    for sub in folders:
        for d, _, files in os.walk(os.path.join(cache_root, sub)):
            found += [os.path.join(d, f) for f in files if not f.startswith(".")]
    return sorted(found)


def source(k):
    return 'extern "C" __device__ int ffi_cached(int* r, int x) { *r = x * %d + 1; return 0; }\n' % k


def run(link, *, cache=True):
    f = cuda.declare_device("ffi_cached", "int32(int32)", link=link)

    @cuda.jit(cache=cache)
    def k(out, xs):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = f(xs[i])

    xs = np.random.default_rng(0).integers(-1000, 1000, 128).astype(np.int32)
    out = np.zeros_like(xs)
    k[1, 128](out, xs)
    return out, xs


out, xs = run(cuda.CUSource(source(3), name="cached_a.cu"))
np.testing.assert_array_equal(out, xs * 3 + 1)
first = entries()
assert len(first) >= 1, first

# Same content under another name: no new compiled entry.
out, xs = run(cuda.CUSource(source(3).encode(), name="cached_b.cu"))
np.testing.assert_array_equal(out, xs * 3 + 1)
assert entries() == first, (first, entries())

# By path (the file's folder joins the include path, so it may get its own
# entry once); the same file again adds nothing.
path = os.path.join(tempfile.mkdtemp(), "cached_c.cu")
with open(path, "w") as fh:
    fh.write(source(3))
out, xs = run(path)
np.testing.assert_array_equal(out, xs * 3 + 1)
by_path = entries()
out, xs = run(path)
assert entries() == by_path, (by_path, entries())

# Changed content: a new entry, and the new code runs.
with open(path, "w") as fh:
    fh.write(source(5))
out, xs = run(path, cache=False)
np.testing.assert_array_equal(out, xs * 5 + 1)
assert len(entries()) == len(by_path) + 1, entries()
print("cache foreign ok")
