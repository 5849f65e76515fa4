# np.dtype(...) inside kernels is a dtype known at compile time: by name
# ('float32', 'f8', 'int16') or from a NumPy scalar type, usable as the dtype
# of local and shared arrays and as a cast; an unknown name is a TypingError
# at the call, an array of the object dtype numba's imprecise-type error. Results against NumPy on random data.
# stdout: np.dtype ok
import numpy as np
from numba import cuda
from numba.core.errors import TypingError


@cuda.jit
def mixed(out, x):
    i = cuda.grid(1)
    loc = cuda.local.array(4, dtype=np.dtype("float32"))
    sh = cuda.shared.array(64, dtype=np.dtype(np.int64))
    as_f8 = np.dtype("f8")
    if i < x.size:
        loc[0] = x[i]
        sh[i] = i * 3
        out[i] = loc[0] + sh[i] + as_f8(0.25) + np.dtype("int16")(7.9)


x = np.random.default_rng(41).standard_normal(64).astype(np.float32)
out = np.zeros(64)
mixed[1, 64](out, x)
np.testing.assert_allclose(out, x.astype(np.float64) + np.arange(64) * 3 + 0.25 + 7, rtol=1e-12)

for spelled, message in (('"O"', "Cannot infer the type of variable 'arr', have imprecise type: array(pyobject, 1d, C)."),
                         ('"int33"', "np.dtype('int33') is not a dtype kernels support")):
    source = "def bad(a):\n    arr = cuda.local.array(4, dtype=np.dtype(%s))\n    a[0] = arr[0]\n" % spelled
    namespace = {"cuda": cuda, "np": np}
    exec(compile(source, "<bad dtype %s>" % spelled, "exec"), namespace)
    try:
        cuda.jit(namespace["bad"])[1, 1](np.zeros(1))
    except TypingError as e:
        assert message in str(e), str(e)
    else:
        raise AssertionError("np.dtype(%s) was accepted" % spelled)
print("np.dtype ok")
