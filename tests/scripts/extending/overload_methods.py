# @overload_method and @overload_attribute on cuhost's own types (arrays)
# and on an extension type: methods with keyword arguments and defaults,
# attributes computed by device functions; checked against NumPy.
# stdout: overload methods ok
import numpy as np
from numba import cuda
from numba.cuda import types
from numba.cuda.extending import overload_attribute, overload_method


@overload_method(types.Array, "weighted_sum")
def ol_weighted_sum(arr, weight=1.0, offset=0.0):
    if arr.ndim != 1:
        return None

    def impl(arr, weight=1.0, offset=0.0):
        s = 0.0
        for i in range(arr.size):
            s += arr[i] * weight
        return s + offset
    return impl


@overload_attribute(types.Array, "last")
def ol_last(arr):
    def impl(arr):
        return arr[arr.size - 1]
    return impl


@cuda.jit
def kernel(a, out):
    out[0] = a.weighted_sum()
    out[1] = a.weighted_sum(2.0)
    out[2] = a.weighted_sum(offset=5.0, weight=-1.0)
    out[3] = a.last


rng = np.random.default_rng(3)
a = rng.standard_normal(37)
out = np.zeros(4)
kernel[1, 1](a, out)
s = a.sum()
np.testing.assert_allclose(out, [s, 2 * s, -s + 5.0, a[-1]], rtol=1e-12)
print("overload methods ok")
