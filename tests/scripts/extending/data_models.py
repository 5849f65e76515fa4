# The LLVM types code generation callbacks see for cuhost's own types
# (cuda/_ext/llvm_types.py) agree with the engine's representation of the
# same values, and extension data models (struct, opaque, primitive) are
# registered with the layout their llvmlite types give.
# stdout: data models ok
import re

import _cuhost
from llvmlite import ir
from numba.cuda import types
from numba.cuda._ext import llvm_types
from numba.cuda.extending import core_models, register_model


def engine(t):
    return _cuhost._llvm_type(t._cuhost_type)


def ours(t):
    # llvmlite writes typed pointers; the engine's LLVM has only `ptr`.
    text = str(llvm_types.value_type(t)).replace(" ", "")
    while True:
        typed = re.sub(r"(\{[^{}*]*\}|[a-z0-9]+)\*", "ptr", text)
        if typed == text:
            return text
        text = typed


cases = [types.boolean, types.int8, types.uint16, types.int32, types.int64, types.float16, types.float32,
         types.float64, types.complex64, types.complex128, types.float32[:], types.int64[:, ::1],
         types.UniTuple(types.int32, 3), types.Tuple((types.float64, types.boolean)),
         types.CPointer(types.float32), types.none]


class Pair(types.Type):
    def __init__(self):
        super().__init__(name="Pair")


class Handle(types.Type):
    def __init__(self):
        super().__init__(name="Handle")


class Bits(types.Type):
    def __init__(self):
        super().__init__(name="int32")  # a name that is also a builtin spelling


@register_model(Pair)
class PairModel(core_models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("a", types.int8), ("b", types.float64), ("c", types.boolean)])


register_model(Handle)(core_models.OpaqueModel)


@register_model(Bits)
class BitsModel(core_models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, ir.IntType(24))


cases += [Pair(), Handle(), Bits(), types.Array(Pair(), 1, "C")]
for t in cases:
    assert engine(t).replace(" ", "") == ours(t), (t, engine(t), ours(t))

assert Pair()._cuhost_type == "Pair"
assert Bits()._cuhost_type != "int32"  # never shadows cuhost's own types
from numba.cuda.models import default_manager  # noqa: E402

assert llvm_types.abi_size_align(default_manager.lookup(Pair()).get_data_type()) == (24, 8)
print("data models ok")
