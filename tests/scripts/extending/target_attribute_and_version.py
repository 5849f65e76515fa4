# numba.version_info (what code that picks behaviour by numba version reads)
# and a target="cuda" @overload_attribute: usable in kernels, unknown to
# numba.njit on the host, with numba's message.
# stdout: target attribute ok
import numpy as np
import numba
from numba import cuda, njit
from numba.cuda import types
from numba.core.errors import TypingError
from numba.cuda.extending import overload_attribute

v = numba.version_info
assert v[:2] >= (0, 60) and v.short == v[:2] and v.full == v[:3], v
assert v.string == "%d.%d.%d" % v.full and v.tuple == tuple(str(x) for x in v.full), v
assert numba.__version__.startswith("0.0.0+cuhost"), numba.__version__


@overload_attribute(types.Integer, "scaled_by_seven", target="cuda")
def ov_scaled(x):
    def imp(x):
        return x * 7

    return imp


try:
    @njit(types.int64(types.int64))
    def host_use(x):
        return x.scaled_by_seven

    raise AssertionError("TypingError not raised")
except TypingError as e:
    assert "Unknown attribute 'scaled_by_seven' of type int64" in str(e), str(e)


@cuda.jit(types.void(types.int64[::1], types.int64[::1]))
def kernel(out, xs):
    i = cuda.grid(1)
    if i < xs.size:
        out[i] = xs[i].scaled_by_seven


rng = np.random.default_rng(7)
xs = rng.integers(-1000, 1000, size=200)
out = np.zeros_like(xs)
kernel[4, 64](out, xs)
np.testing.assert_array_equal(out, xs * 7)
print("target attribute ok")
