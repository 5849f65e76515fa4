# The LLVM types code generation callbacks see for cuhost's own types
# (cuda/_ext/llvm_types.py) agree with the engine's representation of the
# same values, and extension data models (struct, opaque, primitive) are
# registered with the layout their llvmlite types give.
# stdout: data models ok

import _cuhost
from llvmlite import ir
from numba.cuda import types
from numba.cuda._ext import llvm_types
from numba.cuda.extending import core_models, register_model


def engine(t):
    """The engine's LLVM type of `t`'s values, as _cuhost._llvm_layout (the
    one home of LLVM layout) describes it, written as LLVM text here."""
    return text(_cuhost._llvm_layout(t.__cuhost_type__)[0])


def text(d):
    """LLVM's text of a layout description, without spaces; an extension
    type is written as its data model's type (the engine defers to it)."""
    tag = d[0]
    if tag == "int":
        return "i%d" % d[1]
    if tag in ("half", "bfloat", "float", "double"):
        return tag
    if tag == "ptr":
        return "ptr"
    if tag == "array":
        return "[%dx%s]" % (d[1], text(d[2]))
    if tag == "vector":
        return "<%dx%s>" % (d[1], text(d[2]))
    if tag == "struct":
        body = "{%s}" % ",".join(text(e) for e in d[1])
        return "<%s>" % body if d[2] else body
    assert tag == "extension", d
    model = default_manager.lookup(extension_types[d[1].spelling])
    return untyped(model.get_data_type() if d[2] else model.get_value_type())


def ours(t):
    # llvmlite writes typed pointers; the engine's LLVM has only `ptr`.
    return untyped(llvm_types.value_type(t))


def untyped(lt):
    """llvmlite's text with each typed pointer `T*` written as `ptr`."""
    text = str(lt).replace(" ", "")
    while "*" in text:
        star = text.index("*")
        begin = star - 1
        if text[begin] in "}]":  # the pointee is a bracketed group: find its opening
            depth = 0
            while True:
                depth += text[begin] in "}]"
                depth -= text[begin] in "{["
                if depth == 0:
                    break
                begin -= 1
        else:
            while begin > 0 and (text[begin - 1].isalnum()):
                begin -= 1
        text = text[:begin] + "ptr" + text[star + 1:]
    return text


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


from numba.cuda.models import default_manager  # noqa: E402

extension_types = {t._cuhost_type: t for t in (Pair(), Handle(), Bits())}
cases += [Pair(), Handle(), Bits(), types.Array(Pair(), 1, "C")]
for t in cases:
    assert engine(t) == ours(t), (t, engine(t), ours(t))

assert Pair()._cuhost_type == "Pair"
assert Bits()._cuhost_type != "int32"  # never shadows cuhost's own types
assert llvm_types.abi_size_align(default_manager.lookup(Pair()).get_data_type()) == (24, 8)
# An extension type crosses as its handle; the engine sizes it from the
# LLVM type its data model registered ({i8, double, i8}; i24; a pointer).
for t, size_align in ((Pair(), (24, 8)), (Bits(), (4, 4)), (Handle(), (8, 8))):
    value, memory, size, align = _cuhost._llvm_layout(t.__cuhost_type__)
    assert value[0] == "extension" and value[1].spelling == t._cuhost_type and not value[2], value
    assert memory[0] == "extension" and memory[2], memory
    assert (size, align) == size_align, (t, size, align)
pair_array = _cuhost._llvm_layout(types.Array(Pair(), 1, "C").__cuhost_type__)[0]
assert pair_array[1][0] == ("ptr", ("extension", pair_array[1][0][1][1], True)), pair_array

# A wider random set of cuhost's own types (nested tuples, arrays of scalars
# and records, optionals, pointers): the llvmlite types agree with the
# engine's LLVM types, and their in-memory size and alignment are C's
# (ctypes lays out the same members; a record's bytes are its dtype's).
import ctypes  # noqa: E402
import random  # noqa: E402

import numpy as np  # noqa: E402
from numba.cuda.np.numpy_support import from_dtype  # noqa: E402

rng = random.Random(29)
scalars = {types.boolean: ctypes.c_bool, types.int8: ctypes.c_int8, types.uint8: ctypes.c_uint8,
           types.int16: ctypes.c_int16, types.uint32: ctypes.c_uint32, types.int64: ctypes.c_int64,
           types.float16: ctypes.c_uint16, types.float32: ctypes.c_float, types.float64: ctypes.c_double}
complexes = {types.complex64: ctypes.c_float, types.complex128: ctypes.c_double}


def struct(*members):
    return type("S", (ctypes.Structure,), {"_fields_": [("f%d" % i, m) for i, m in enumerate(members)]})


def random_record():
    fields = [("f%d" % i, rng.choice(["i1", "i4", "f8", "f4", "u2", "b1", "c8"])) for i in range(rng.randrange(1, 5))]
    return from_dtype(np.dtype(fields, align=rng.random() < 0.5))


def random_type(depth=0):
    """(a cuda.types type, the ctypes type of its values in memory)."""
    r = rng.random() if depth < 3 else 0
    if r < 0.3:
        t = rng.choice(list(scalars))
        return t, scalars[t]
    if r < 0.4:
        t = rng.choice(list(complexes))
        return t, struct(complexes[t], complexes[t])
    if r < 0.55:
        dtype = random_record() if rng.random() < 0.4 else rng.choice(list(scalars))
        ndim = rng.randrange(1, 4)
        a = types.Array(dtype, ndim, rng.choice("CFA"))
        return a, struct(ctypes.c_void_p, ctypes.c_int64 * ndim, ctypes.c_int64 * ndim)
    if r < 0.65:
        rec = random_record()
        return rec, ctypes.c_void_p  # inside a value, a record is the address of its bytes
    if r < 0.75:
        inner, _ = random_type(depth + 1)
        return types.CPointer(inner), ctypes.c_void_p
    if r < 0.85:
        inner, c = random_type(depth + 1)
        if isinstance(inner, types.Optional):
            return inner, c
        return types.Optional(inner), struct(ctypes.c_bool, c)
    items = [random_type(depth + 1) for _ in range(rng.randrange(1, 4))]
    if rng.random() < 0.3:
        t, c = items[0]
        return types.UniTuple(t, len(items)), struct(*[c] * len(items))
    return types.Tuple([t for t, _ in items]), struct(*[c for _, c in items])


seen = 0
for _ in range(300):
    t, c = random_type()
    if isinstance(t, types.Record):  # in memory (an array element) a record is its bytes
        c = ctypes.c_uint8 * t.size
    assert engine(t) == ours(t), (t, engine(t), ours(t))
    size, align = llvm_types.abi_size_align(llvm_types.data_type(t))
    assert (size, align) == (ctypes.sizeof(c), ctypes.alignment(c)), (t, (size, align), ctypes.sizeof(c))
    handle = _cuhost.parse_type(t._cuhost_type)
    value, memory, engine_size, engine_align = _cuhost._llvm_layout(handle)
    assert (engine_size, engine_align) == (size, align), t
    seen += isinstance(t, types.BaseTuple)

# Arrays of records point at the records' bytes; a record in memory is its bytes.
rec = random_record()
assert untyped(llvm_types.data_type(rec)) == "[%dxi8]" % rec.size
assert str(llvm_types.value_type(types.Array(rec, 1, "C")).elements[0]) == "[%d x i8]*" % rec.size
assert llvm_types.abi_size_align(llvm_types.data_type(rec)) == (rec.size, 1)
assert str(llvm_types.value_type(types.CPointer(types.boolean))) == "i8*"
assert seen > 30, seen
print("data models ok")
