# NVRTC on a GPU: a failing .cu gives NvrtcError carrying the whole log and
# the file name; a source that compiles with warnings gives exactly one
# UserWarning "NVRTC log messages: ..." (and none when it comes from the
# cache); a missing .ptx is FileNotFoundError; an unknown extension is named.
# These sources are plain C++ that cuhost would otherwise compile with clang
# and inline (ffi/device_compile.h, no NVRTC log then): the NVRTC path is
# what is tested here.
# backends: cuda
# env: CUHOST_INLINE_CU=0
# stdout: gpu nvrtc ok
import os
import tempfile
import warnings

import _cuhost
import numpy as np
from numba import cuda

tmp = tempfile.mkdtemp()
os.environ["CUHOST_CACHE_DIR"] = os.path.join(tmp, "cache")
broken = os.path.join(tmp, "broken_twice.cu")
with open(broken, "w") as f:
    f.write('extern "C" __device__ int ffi_broken(int* r, int x) {\n  *r = alpha_unknown;\n  return beta_unknown;\n}\n')
bad = cuda.declare_device("ffi_broken", "int32(int32)", link=broken)


@cuda.jit
def k_bad(out):
    out[0] = bad(1)


try:
    k_bad[1, 1](np.zeros(1, np.int32))
except _cuhost.NvrtcError as e:
    msg = str(e)
    assert "broken_twice.cu" in msg and "alpha_unknown" in msg and "beta_unknown" in msg, msg
else:
    raise AssertionError("a broken .cu compiled")

src = ('extern "C" __device__ int ffi_warns(int* r, int x) {\n  int never_used_%d;\n  *r = x + 40;\n  return 0;\n}\n'
       % os.getpid())
warned = cuda.declare_device("ffi_warns", "int32(int32)", link=cuda.CUSource(src, name="warns.cu"))


def launch():
    @cuda.jit
    def k(out, xs):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = warned(xs[i])

    xs = np.arange(64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        k[1, 64](out, xs)
    np.testing.assert_array_equal(out, xs + 40)
    return [w for w in caught if issubclass(w.category, UserWarning) and "NVRTC log messages" in str(w.message)]


first = launch()
assert len(first) == 1, [str(w.message) for w in first]
assert str(first[0].message).startswith("NVRTC log messages: ") and "never_used" in str(first[0].message)
again = launch()
assert again == [], [str(w.message) for w in again]

missing = cuda.declare_device("ffi_kind_ptx", "int32(int32)", link=os.path.join(tmp, "nothere.ptx"))
odd = cuda.declare_device("ffi_kind_ptx", "int32(int32)", link=os.path.join(tmp, "lib.PTX"))
for decl, exc, text in ((missing, FileNotFoundError, "nothere.ptx not found"),
                        (missing, _cuhost.LinkerError, "nothere.ptx not found"),
                        (odd, _cuhost.LinkerError, "extension .PTX")):
    @cuda.jit
    def k(out):
        out[0] = decl(1)

    try:
        k[1, 1](np.zeros(1, np.int32))
    except exc as e:
        assert text in str(e), str(e)
    else:
        raise AssertionError(text)
print("gpu nvrtc ok")
