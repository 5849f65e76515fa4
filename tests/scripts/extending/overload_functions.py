# @overload: typing functions choose an implementation per argument types;
# implementations compile as device functions (several signatures, defaults
# and keyword arguments, overloads calling overloads, CUDA-specific over
# generic, literal dispatch, lambdas, register_jitable), checked against
# NumPy on random data.
# stdout: overload functions ok
import math

import numpy as np
from numba import cuda
from numba.cuda import types
from numba.cuda.extending import overload, register_jitable

rng = np.random.default_rng(11)


def scale(x):
    pass


@overload(scale)
def ol_scale(x):
    if isinstance(x, types.Integer):
        def impl(x):
            return x * 3
        return impl
    if isinstance(x, types.Float):
        def impl(x):
            return x * 0.5
        return impl


def affine(x, a=2.0, b=1.0):
    pass


@overload(affine)
def ol_affine(x, a=2.0, b=1.0):
    def impl(x, a=2.0, b=1.0):
        return a * x + b
    return impl


def outer(x):
    pass


@overload(outer)
def ol_outer(x):
    def impl(x):
        return scale(x) + 1  # an overload calling an overload
    return impl


def which(x):
    pass


@overload(which, target="generic")
def ol_which_generic(x):
    return lambda x: 1


@overload(which, target="cuda")
def ol_which_cuda(x):
    return lambda x: 2  # CUDA-specific implementations win on this target


def lit(x):
    pass


@overload(lit, prefer_literal=True)
def ol_lit(x):
    if isinstance(x, types.IntegerLiteral):
        if x.literal_value == 7:
            return lambda x: -7
        raise ValueError("only 7 is special")
    return lambda x: x + 100


@register_jitable
def hypot2(a, b):
    return math.sqrt(a * a + b * b)


@cuda.jit
def kernel(xi, xf, out_i, out_f, out_misc):
    i = cuda.grid(1)
    if i < xi.size:
        out_i[i] = scale(xi[i])
        out_f[i] = scale(xf[i]) + affine(xf[i]) + affine(xf[i], 3.0) + affine(xf[i], b=-1.0)
        out_f[i] += outer(xf[i]) + hypot2(xf[i], 2.0)
    if i == 0:
        out_misc[0] = which(1)
        out_misc[1] = lit(7)
        out_misc[2] = lit(5)
        out_misc[3] = lit(xi[0])


n = 100
xi = rng.integers(-1000, 1000, n).astype(np.int32)
xf = rng.standard_normal(n)
out_i = np.zeros(n, np.int64)
out_f = np.zeros(n)
out_misc = np.zeros(4, np.int64)
kernel[4, 32](xi, xf, out_i, out_f, out_misc)
np.testing.assert_array_equal(out_i, xi.astype(np.int64) * 3)
expect = xf * 0.5 + (2 * xf + 1) + (3 * xf + 1) + (2 * xf - 1) + (xf * 0.5 + 1) + np.sqrt(xf * xf + 4)
np.testing.assert_allclose(out_f, expect, rtol=1e-12)
assert list(out_misc) == [2, -7, 105, xi[0] + 100], out_misc
assert hypot2(3.0, 4.0) == 5.0  # still a plain Python function on the host
print("overload functions ok")
