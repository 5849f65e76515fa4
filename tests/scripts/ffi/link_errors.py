# Link errors name what went wrong, on every backend: a declared function
# that nothing defines is a LinkerError naming the symbol; the same symbol
# defined by two different items is a LinkerError naming it (never a silent
# pick of one definition, never a crash); the script goes on afterwards.
# stdout: link errors ok
import _cuhost
import numpy as np
from numba import cuda
from numba.cuda.cudadrv.driver import LinkerError  # numba's import path
from numba.cuda.cudadrv.error import NvrtcError

assert LinkerError is _cuhost.LinkerError and NvrtcError is _cuhost.NvrtcError

nothing = cuda.declare_device("ffi_defined_nowhere", "int32(int32)")


@cuda.jit
def k_unresolved(out):
    out[0] = nothing(1)


try:
    k_unresolved[1, 1](np.zeros(1, np.int32))
except LinkerError as e:
    assert "unresolved symbol" in str(e) and "ffi_defined_nowhere" in str(e), str(e)
else:
    raise AssertionError("an undefined foreign function linked")

one = cuda.CUSource('extern "C" __device__ int ffi_dup(int* r, int x) { *r = x + 1; return 0; }\n', name="one.cu")
two = cuda.CUSource('extern "C" __device__ int ffi_dup(int* r, int x) { *r = x + 2; return 0; }\n', name="two.cu")
dup = cuda.declare_device("ffi_dup", "int32(int32)", link=[one, two])

for lto in (False, True):
    @cuda.jit(lto=lto)
    def k_dup(out):
        out[0] = dup(1)

    try:
        k_dup[1, 1](np.zeros(1, np.int32))
    except LinkerError as e:
        assert "ffi_dup" in str(e) and "more than once" in str(e), str(e)
    else:
        raise AssertionError("a symbol defined twice linked (lto=%s)" % lto)

# The same declaration with one definition still works afterwards.
ok = cuda.declare_device("ffi_dup", "int32(int32)", link=[two])


@cuda.jit
def k_ok(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = ok(xs[i])


xs = np.random.default_rng(3).integers(-100, 100, 50).astype(np.int32)
out = np.zeros(50, np.int32)
k_ok[1, 64](out, xs)
np.testing.assert_array_equal(out, xs + 2)
print("link errors ok")
