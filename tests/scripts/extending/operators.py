# Operators and builtins on extension types come from the extension API:
# @overload(operator.add), operator.eq, operator.neg and @overload(len) /
# @overload(abs) give `a + b`, `a == b`, `-a`, `len(a)` and `abs(a)` for an
# extension type (a StructModel built with an @intrinsic), while the same
# operators on numbers keep cuhost's own typing; checked against NumPy.
# stdout: operators ok
import operator

import numpy as np
from numba import cuda
from numba.cuda import types
from numba.cuda.extending import intrinsic, make_attribute_wrapper, models, overload, register_model


class Vec2Type(types.Type):
    def __init__(self):
        super().__init__(name="Vec2")


vec2 = Vec2Type()


@register_model(Vec2Type)
class Vec2Model(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("x", types.float64), ("y", types.float64)])


make_attribute_wrapper(Vec2Type, "x", "x")
make_attribute_wrapper(Vec2Type, "y", "y")


@intrinsic
def make_vec2(typingctx, x, y):
    sig = vec2(types.float64, types.float64)

    def codegen(context, builder, signature, args):
        return context.make_tuple(builder, signature.return_type, args)  # {x, y} is the model's struct
    return sig, codegen


def is_vec(*tys):
    return all(isinstance(t, Vec2Type) for t in tys)


@overload(operator.add)
def ol_add(a, b):
    if is_vec(a, b):
        return lambda a, b: make_vec2(a.x + b.x, a.y + b.y)


@overload(operator.mul)
def ol_mul(a, b):
    if is_vec(a) and isinstance(b, types.Number):
        return lambda a, b: make_vec2(a.x * b, a.y * b)


@overload(operator.neg)
def ol_neg(a):
    if is_vec(a):
        return lambda a: make_vec2(-a.x, -a.y)


@overload(operator.eq)
def ol_eq(a, b):
    if is_vec(a, b):
        return lambda a, b: a.x == b.x and a.y == b.y


@overload(len)
def ol_len(a):
    if is_vec(a):
        return lambda a: 2


@overload(abs)
def ol_abs(a):
    if is_vec(a):
        return lambda a: (a.x * a.x + a.y * a.y) ** 0.5


@cuda.jit
def kernel(xs, ys, out, flags):
    i = cuda.grid(1)
    if i < xs.size:
        p = make_vec2(xs[i], ys[i])
        q = -(p + p) * 0.25 + p
        out[i, 0] = q.x
        out[i, 1] = abs(p)
        out[i, 2] = len(p) + (i + 1) * 2  # integers keep cuhost's own operators
        flags[i] = p == q


rng = np.random.default_rng(9)
n = 70
xs = rng.standard_normal(n)
ys = rng.standard_normal(n)
out = np.zeros((n, 3))
flags = np.zeros(n, np.bool_)
kernel[3, 32](xs, ys, out, flags)
np.testing.assert_allclose(out[:, 0], 0.5 * xs, rtol=1e-12)
np.testing.assert_allclose(out[:, 1], np.hypot(xs, ys), rtol=1e-12)
np.testing.assert_array_equal(out[:, 2], 2 + 2 * np.arange(1, n + 1))
np.testing.assert_array_equal(flags, (0.5 * xs == xs) & (0.5 * ys == ys))
print("operators ok")
