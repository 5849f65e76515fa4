# The classic extension API: an extension type with a StructModel data model
# (register_model), constructed in kernels through type_callable +
# lower_builtin (llvmlite code generation with cgutils.create_struct_proxy),
# members read through make_attribute_wrapper, a computed attribute through
# an AttributeTemplate + lower_getattr, a lowering that compiles Python
# through context.compile_internal; values as locals, arguments and results
# of device functions, and elements of local and shared arrays.
# stdout: struct models ok
import math

import numpy as np
from numba import cuda
from numba.cuda import cgutils, types
from numba.cuda.cudadecl import registry as decl_registry
from numba.cuda.cudaimpl import lower_attr
from numba.cuda.extending import (core_models, lower_builtin, make_attribute_wrapper, register_model,
                                  type_callable)
from numba.cuda.typing.templates import AttributeTemplate


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


class PointType(types.Type):
    def __init__(self):
        super().__init__(name="Point")


point_type = PointType()


@register_model(PointType)
class PointModel(core_models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("x", types.float64), ("y", types.float64), ("tag", types.int32)])


make_attribute_wrapper(PointType, "x", "x")
make_attribute_wrapper(PointType, "y", "y")
make_attribute_wrapper(PointType, "tag", "tag")


@type_callable(Point)
def type_point(context):
    def typer(x, y):
        if isinstance(x, types.Number) and isinstance(y, types.Number):
            return point_type
    return typer


@lower_builtin(Point, types.Number, types.Number)
def lower_point(context, builder, sig, args):
    p = cgutils.create_struct_proxy(point_type)(context, builder)
    p.x = context.cast(builder, args[0], sig.args[0], types.float64)
    p.y = context.cast(builder, args[1], sig.args[1], types.float64)
    p.tag = context.get_constant(types.int32, 7)
    return p._getvalue()


@decl_registry.register_attr
class PointAttributes(AttributeTemplate):
    key = PointType

    def resolve_norm(self, ty):
        return types.float64


@lower_attr(PointType, "norm")
def point_norm(context, builder, typ, value):
    def norm(x, y):
        return math.sqrt(x * x + y * y)

    x = builder.extract_value(value, 0)
    y = builder.extract_value(value, 1)
    return context.compile_internal(builder, norm, types.float64(types.float64, types.float64), [x, y])


@cuda.jit(device=True)
def swap(p):
    return Point(p.y, p.x)


@cuda.jit
def kernel(xs, ys, out, tags):
    i = cuda.grid(1)
    local = cuda.local.array(4, dtype=point_type)
    shared = cuda.shared.array(32, dtype=point_type)
    if i < xs.size:
        p = Point(xs[i], ys[i])
        q = swap(p)
        local[1] = q
        shared[cuda.threadIdx.x] = p
        r = local[1]
        out[i, 0] = r.x - r.y
        out[i, 1] = p.norm
        out[i, 2] = shared[cuda.threadIdx.x].x
        tags[i] = p.tag


n = 50
rng = np.random.default_rng(5)
xs = rng.standard_normal(n)
ys = rng.integers(-20, 20, n).astype(np.int32)
out = np.zeros((n, 3))
tags = np.zeros(n, np.int32)
kernel[2, 32](xs, ys, out, tags)
np.testing.assert_allclose(out[:, 0], ys - xs, rtol=1e-12)
np.testing.assert_allclose(out[:, 1], np.hypot(xs, ys), rtol=1e-12)
np.testing.assert_allclose(out[:, 2], xs, rtol=1e-12)
assert (tags == 7).all()

# The signature of a compiled specialization names the extension type.
sig = kernel.overloads[next(iter(kernel.overloads))]._type_annotation.typemap
assert sig["p"] == point_type and sig["local"].dtype == point_type, sig


# Extension values as kernel parameters compile (their members are the
# parameter's slots); a launch cannot pass a Python object for them.
ptx, _ = cuda.compile_ptx(swap, (point_type,), device=True)
assert ".func" in ptx
k = cuda.jit(types.void(types.float64[::1], point_type))(lambda out, p: None)
print("struct models ok")
