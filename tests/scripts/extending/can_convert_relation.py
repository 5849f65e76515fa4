# The extension API's typing context answers can_convert with the engine's
# one conversion relation (through _cuhost._conversion), numba's: every
# ordered pair of numba's 14 scalar types against a table written from
# numba 0.68's casting rules, then arrays, Optional, literals and tuples as
# numba's types convert them, a user type's own can_convert_to /
# can_convert_from hooks, and resolve_overload's choice and ambiguity.
# stdout: can_convert relation ok
import _cuhost
from numba.cuda import types
from numba.cuda.descriptor import cuda_target
from numba.cuda.typing.templates import signature

ctx = cuda_target.typing_context
scalars = [types.boolean, types.int8, types.int16, types.int32, types.int64, types.uint8, types.uint16,
           types.uint32, types.uint64, types.float16, types.float32, types.float64, types.complex64,
           types.complex128]
# Row: from; column: to. E exact, P promote, S safe, U unsafe, - none (numba's answers).
numba_table = [
    "ESSSSSSSSSSSSS", "UEPPPUUUUSSSSS", "UUEPPUUUUUSSSS", "UUUEPUUUUUUSUS", "UUUUEUUUUUUSUS",
    "UUSSSEPPPUSSSS", "UUUSSUEPPUUSUS", "UUUUSUUEPUUSUS", "UUUUUUUUEUUSUS", "UUUUUUUUUEPPSS",
    "UUUUUUUUUUEPSS", "UUUUUUUUUUUEUS", "------------EP", "------------UE",
]
letter = {None: "-", 1: "E", 2: "P", 3: "S", 4: "U"}
mismatches = []
for i, a in enumerate(scalars):
    for j, b in enumerate(scalars):
        got = ctx.can_convert(a, b)
        engine = _cuhost._conversion(a.__cuhost_type__, b.__cuhost_type__)
        if letter[got] != numba_table[i][j] or letter[engine] != numba_table[i][j]:
            mismatches.append((str(a), str(b), got, engine, numba_table[i][j]))
assert not mismatches, mismatches

# Beyond scalars (numba's Array, Optional, Literal and tuple rules).
arr = types.float64[::1]
cases = [
    (arr, types.float64[:], 3), (arr, types.Array(types.float64, 1, "C", readonly=True), 3),
    (types.float64[:], arr, None), (arr, types.float32[:], None),
    (types.none, types.Optional(types.int64), 2), (types.int32, types.Optional(types.int64), 2),
    (types.Optional(types.int64), types.int64, 3), (types.Optional(types.float64), types.Optional(types.int8), 4),
    (types.literal(3), types.int64, 2), (types.literal(3), types.int32, 4), (types.literal(True), types.boolean, 2),
    (types.UniTuple(types.int32, 2), types.UniTuple(types.int64, 2), 2),
    (types.Tuple((types.int32, types.float32)), types.UniTuple(types.float64, 2), 3),
    (types.int64, types.literal(3), None),
]
for a, b, want in cases:
    got = ctx.can_convert(a, b)
    assert got == want, (a, b, got, want)


# A user's type: the engine has no rule for it, its own hooks answer (the
# better of the two, as numba's can_convert takes).
class Meters(types.Type):
    def __init__(self):
        super().__init__(name="Meters")

    def can_convert_to(self, typingctx, other):
        if other == types.float64:
            return typingctx.can_convert(types.float32, other)  # a promotion
        if other == types.float32:
            return 4

    def can_convert_from(self, typingctx, other):
        if other == types.int64:
            return 3


meters = Meters()
assert ctx.can_convert(meters, types.float64) == 2
assert ctx.can_convert(meters, types.float32) == 4
assert ctx.can_convert(types.int64, meters) == 3
assert ctx.can_convert(meters, types.int64) is None
assert ctx.can_convert(meters, meters) == 1

# resolve_overload: the best-rated case, the first declared among ties; a
# tie is a TypeError when ties are refused.
i4_f8 = [signature(types.float64, types.int32), signature(types.float64, types.float64)]
assert ctx.resolve_overload("k", i4_f8, (types.int64,), {}) is i4_f8[1]  # int64 -> float64 is safe
assert ctx.resolve_overload("k", i4_f8, (types.int16,), {}) is i4_f8[0]
assert ctx.resolve_overload("k", i4_f8, (types.complex64,), {}) is None
crossed = [signature(types.float64, types.int32, types.float64), signature(types.float64, types.float64, types.int32)]
assert ctx.resolve_overload("k", crossed, (types.int64, types.int64), {}) is crossed[0]
try:
    ctx.resolve_overload("k", crossed, (types.int64, types.int64), {}, allow_ambiguous=False)
    raise AssertionError("no ambiguity")
except TypeError as e:
    assert str(e) == ("Ambiguous overloading for k (int64, int64):\n(int32, float64) -> float64\n"
                      "(float64, int32) -> float64"), str(e)
print("can_convert relation ok")
