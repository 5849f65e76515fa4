# numba.cuda.descriptor.cuda_target.typing_context.can_convert: numba's
# Conversion kinds between scalars (exact, promote, safe, unsafe, none;
# int64 -> float64 is safe, numba's deliberate exception),
# IntEnumMember converting like its integer (at least safe) and never to an
# array; the target context is not implemented and says so when used.
# stdout: conversions ok
from enum import IntEnum

from numba import cuda
from numba.cuda import types
from numba.cuda.descriptor import cuda_target


class Shape(IntEnum):
    circle = 2


ctx = cuda.descriptor.cuda_target.typing_context
assert ctx is cuda_target.typing_context
member = types.IntEnumMember(Shape, types.int64)
assert member == types.IntEnumMember(Shape, types.int64) and member != types.EnumMember(Shape, types.int64)
assert str(member) == "IntEnum<int64>(Shape)"
assert ctx.can_convert(member, types.int64[::1]) is None
assert ctx.can_convert(member, types.int64) == 3  # safe (exact on the integer, at least safe)
assert ctx.can_convert(member, types.int8) == 4  # unsafe
cases = [
    (types.int32, types.int32, 1), (types.int32, types.int64, 2), (types.int64, types.int32, 4),
    (types.uint32, types.int64, 3), (types.int32, types.uint64, 4), (types.int32, types.float64, 3),
    (types.int64, types.float64, 3), (types.float32, types.float64, 2), (types.float64, types.float32, 4),
    (types.float64, types.int64, 4), (types.float32, types.complex128, 3), (types.complex64, types.float64, None),
    (types.boolean, types.int8, 3), (types.int64, types.int64[:], None),
]
for a, b, want in cases:
    got = ctx.can_convert(a, b)
    assert got == want, (a, b, got, want)
try:
    cuda_target.target_context.create_module("m")
except NotImplementedError as e:
    assert "numba.cuda.descriptor.cuda_target.target_context is not implemented" in str(e)
else:
    raise AssertionError("target_context is a placeholder")
print("conversions ok")
