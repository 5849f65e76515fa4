# The errors of @vectorize, @guvectorize and cuda.reduce: numba-cuda's
# exception classes and messages for bad options, bad layouts, return types,
# argument counts, shapes and types.
# stdout: ufunc errors ok
import warnings

import numpy as np
from numba import cuda, guvectorize as numba_guvectorize
from numba.cuda import vectorize, guvectorize, void, int32, float32, float64
from numba.cuda.core.errors import NumbaPerformanceWarning


def raises(exc, fragment, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        assert fragment in str(e), "%r not in %r" % (fragment, str(e))
        return e
    raise AssertionError("%s not raised (%s)" % (exc.__name__, fragment))


def add(a, b):
    return a + b


def copy(a, b):
    for i in range(a.shape[0]):
        b[i] = a[i]


# Options.
raises(KeyError, "Unrecognized options. cuda vectorize target does not support option: 'bogus'",
       lambda: vectorize([float32(float32, float32)], bogus=1)(add))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    vectorize([float32(float32, float32)], nopython=True)(add)
assert any("nopython kwarg for cuda target is redundant" in str(x.message) for x in w)
raises(TypeError, "nopython flag must be True",
       lambda: guvectorize([void(float32[:], float32[:])], "(n)->(n)", nopython=False)(copy))
e = raises(TypeError, "The following target options are not supported:",
           lambda: guvectorize([void(float32[:], float32[:])], "(n)->(n)", what1=True, ever2=False)(copy))
assert "'what1'" in str(e) and "'ever2'" in str(e)
raises(ValueError, "Unsupported target: opencl", lambda: vectorize([float32(float32, float32)], target="opencl"))
raises(NotImplementedError, "CPU compiler", lambda: numba_guvectorize([void(float32[:], float32[:])], "(n)->(n)")(copy))
raises(TypeError, "caching is not supported", lambda: vectorize([float32(float32, float32)], cache=True)(add))

# Layout strings.
raises(ValueError, "bad token in signature", lambda: guvectorize([void(float32[:], float32[:])], "(n)->(n]")(copy))
raises(NameError, "undefined output symbols: m", lambda: guvectorize([void(float32[:], float32[:])], "(n)->(m)")(copy))
raises(TypeError, "guvectorized functions cannot return values",
       lambda: guvectorize([int32(int32[:], int32[:])], "(m)->(m)")(copy))
raises(TypeError, "specifies int32 return type", lambda: guvectorize([int32(int32[:], int32[:])], "(m)->(m)")(copy))

gcopy = guvectorize([void(int32[:], int32[:])], "(n)->(n)")(copy)
arr = np.arange(5, dtype=np.int32)
raises(TypeError, "This gufunc accepts 1 positional argument (when providing input only) or 2 positional arguments "
       "(when providing input and output). Got 3 positional arguments.", gcopy, arr, arr, arr)
raises(ValueError, "cannot specify argument 'out' as both positional and keyword", gcopy, arr, arr, out=arr)
raises(ValueError, "output shape mismatch", gcopy, arr, out=np.zeros(4, np.int32))
raises(TypeError, "no matching signature", gcopy, np.arange(5, dtype=np.float64))
raises(TypeError, "does not support .astype()", gcopy, cuda.to_device(np.arange(5, dtype=np.int64)))


@guvectorize([void(float64[:, :], float64[:, :], float64[:, :])], "(m,n),(n,p)->(m,p)")
def matmul(A, B, C):
    for i in range(C.shape[0]):
        for j in range(C.shape[1]):
            C[i, j] = 0.0


raises(ValueError, "arg #2: shape[1] mismatch argument", matmul, np.zeros((3, 2, 4)), np.zeros((3, 5, 2)))
raises(ValueError, "arg #2: outer dimension mismatch", matmul, np.zeros((3, 2, 4)), np.zeros((2, 4, 2)))
raises(ValueError, "arg #1: insufficient inner dimension", matmul, np.zeros(4), np.zeros((4, 2)))

# Vectorized ufuncs.
vadd = vectorize([float32(float32, float32)])(add)
raises(TypeError, "add() takes from 2 to 3 positional arguments but 4 were given", vadd, 1, 2, 3, 4)
raises(TypeError, "No matching version", vadd, np.zeros(3, np.complex128), np.zeros(3, np.complex128))
raises(ValueError, "could not be broadcast", vadd, np.zeros(3, np.float32), np.zeros(4, np.float32))
raises(ValueError, "non-broadcastable output operand", vadd, np.zeros(3, np.float32), np.zeros(3, np.float32),
       out=np.zeros(4, np.float32))
raises(TypeError, "Cannot cast ufunc 'add' output", vadd, np.zeros(3, np.float32), np.zeros(3, np.float32),
       out=np.zeros(3, np.int32))
raises(ValueError, "cannot specify argument 'out' as both positional and keyword", vadd, np.zeros(3, np.float32),
       np.zeros(3, np.float32), np.zeros(3, np.float32), out=np.zeros(3, np.float32))
raises(TypeError, "Reduction on an empty array.", vadd.reduce, np.zeros(0, np.float32))
raises(TypeError, "vectorize signatures take scalar types", lambda: vectorize([void(float32[:])])(add))

# A gufunc is not callable from a kernel.
@cuda.jit
def kernel(a, b):
    gcopy(a, b)


raises(Exception, "Untyped global name 'gcopy'", kernel[1, 1], arr, arr)

# cuda.reduce.
summer = cuda.reduce(add)
raises(ValueError, "needs a 1-d array", summer, np.zeros((3, 4))[:, ::2])
raises(ValueError, "out of range", summer, np.zeros(3), size=5)

# A gufunc launched with few threads warns like numba-cuda (CUDA_LOW_OCCUPANCY_WARNINGS).
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    gcopy(arr)
assert any(issubclass(x.category, NumbaPerformanceWarning) and "low occupancy" in str(x.message) for x in w)
# Text signatures are read by the engine's type parser: an unknown name or
# malformed text is a TypeError naming the signature; a good one types the
# loop (a uint32 argument reaches the kernel as uint32).
raises(TypeError, "invalid signature 'float32(flaot32)': name 'flaot32' is not defined",
       vectorize(["float32(flaot32)"], target="cuda"), add)
raises(TypeError, "invalid signature 'float32(float32': invalid type syntax",
       vectorize(["float32(float32"], target="cuda"), add)
shifted = vectorize(["uint64(uint32, uint32)"], target="cuda")(lambda a, b: (a << 3) + b)
x = np.random.default_rng(5).integers(0, 1 << 28, 64, dtype=np.uint32)
got = shifted(x, x)
assert got.dtype == np.uint64 and (got == (x.astype(np.uint64) << 3) + x).all(), got
print("ufunc errors ok")
