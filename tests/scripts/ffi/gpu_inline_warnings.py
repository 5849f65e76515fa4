# A plain-C++ .cu that cuhost compiles with clang and inlines on a GPU still
# warns with NVRTC's own log, as the NVRTC path and numba-cuda do: exactly
# one UserWarning "NVRTC log messages: ..." naming the problem, at
# decoration for an eager signature, none when the same source is linked
# again, and none for a source NVRTC has nothing to say about.
# backends: cuda
# stdout: gpu inline warnings ok
import os
import tempfile
import warnings

import numpy as np
from numba import cuda


def nvrtc_warnings(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning) and "NVRTC log" in str(w.message)]


tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "inline_warn.cu")
with open(path, "w") as f:
    f.write('extern "C" __device__ int triple_warn(int* out, int a) {\n  int unused_%d;\n  *out = a * 3;\n'
            '  return 0;\n}\n' % os.getpid())
clean = os.path.join(tmp, "inline_clean.cu")
with open(clean, "w") as f:
    f.write('extern "C" __device__ int triple_clean(int* out, int a) {\n  *out = a * 3;\n  return 0;\n}\n')
triple_warn = cuda.declare_device("triple_warn", "int32(int32)", link=path)
triple_clean = cuda.declare_device("triple_clean", "int32(int32)", link=clean)
kernels = []


def build(fn):
    @cuda.jit("void(int32[::1], int32[::1])")
    def k(out, xs):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = fn(xs[i]) + 1

    kernels.append(k)


got = nvrtc_warnings(lambda: build(triple_warn))
assert len(got) == 1 and got[0].startswith("NVRTC log messages: "), got
assert "declared but never referenced" in got[0] and "unused_" in got[0], got
assert nvrtc_warnings(lambda: build(triple_warn)) == []
assert nvrtc_warnings(lambda: build(triple_clean)) == []
xs = np.random.default_rng(5).integers(-1000, 1000, 256).astype(np.int32)
for k in kernels:
    out = np.zeros_like(xs)
    k[2, 128](out, xs)
    np.testing.assert_array_equal(out, xs * 3 + 1)
print("gpu inline warnings ok")
