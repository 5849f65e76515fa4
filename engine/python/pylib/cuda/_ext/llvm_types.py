"""The LLVM representation of cuhost's types as llvmlite types.

The engine decides how values are represented (codegen/lowering/lowerer.cpp,
llvm_type_of); code generation callbacks build IR for those values with
llvmlite, so this module must agree with it: booleans are i1 in registers
and i8 in memory, complex numbers {F, F}, arrays {T* data, [n x i64] shape,
[n x i64] strides (bytes)}, tuples literal structs, records a pointer to
their bytes, optionals {i1, T}, and extension types their data model. The
engine's `_cuhost._llvm_type(spelling)` gives its side for comparison
(tests/scripts/extending/data_models.py checks that they agree).
"""
from .. import types as _types


def _not_bound(t):
    raise RuntimeError("cuda._ext.llvm_types needs the cuda package fully imported (cuda/_late_bound.py)")


# The data model of an extension type (models.py's default_manager.lookup):
# models.py builds its models of cuhost's own types from this module, so
# cuda/_late_bound.py binds it when `cuda` is imported.
_data_model_of = _not_bound


def bind_late(data_model_of):
    global _data_model_of
    _data_model_of = data_model_of


def _ir():
    # Lazy: llvmlite is optional, needed only by extension code generation.
    from llvmlite import ir

    return ir


def _float_type(t):
    ir = _ir()
    name = t.name
    if name in ("fp8_e5m2", "fp8_e4m3", "fp8_e8m0"):
        return ir.IntType(8)
    if name == "bfloat16_raw":
        return ir.IntType(16)
    if name == "bfloat16":
        raise NotImplementedError("bfloat16 values have no llvmlite type (llvmlite has no bfloat)")
    return {"float16": ir.HalfType, "float32": ir.FloatType, "float64": ir.DoubleType}[name]()


def value_type(t):
    """The llvmlite type of values of `t` in registers."""
    ir = _ir()
    if isinstance(t, _types.Literal):
        return value_type(t.literal_type)
    if type(t)._cuhost_extension:
        return _data_model_of(t).get_value_type()
    if isinstance(t, _types.Boolean):
        return ir.IntType(1)
    if isinstance(t, _types.Integer):
        return ir.IntType(t.bitwidth)
    if isinstance(t, _types.Float):
        return _float_type(t)
    if isinstance(t, _types.Complex):
        f = ir.FloatType() if t.name == "complex64" else ir.DoubleType()
        return ir.LiteralStructType([f, f])
    if isinstance(t, _types.Array):
        dims = ir.ArrayType(ir.IntType(64), t.ndim)
        return ir.LiteralStructType([data_type(t.dtype).as_pointer(), dims, dims])
    if isinstance(t, _types.BaseTuple):
        return ir.LiteralStructType([value_type(e) for e in t.types])
    if isinstance(t, _types.CPointer):
        return data_type(t.dtype).as_pointer()
    if isinstance(t, _types.Record):
        return ir.IntType(8).as_pointer()
    if isinstance(t, _types.Optional):
        return ir.LiteralStructType([ir.IntType(1), value_type(t.type)])
    name = t.name
    if name.startswith("Record("):
        return ir.IntType(8).as_pointer()
    if isinstance(t, _types.Scalar):  # fp8 and other storage floats
        return _float_type(t)
    # Values that carry no bits (None, functions, modules, type objects).
    return ir.LiteralStructType([])


def data_type(t):
    """The llvmlite type of values of `t` in memory (booleans are bytes)."""
    ir = _ir()
    if isinstance(t, _types.Boolean):
        return ir.IntType(8)
    if type(t)._cuhost_extension:
        return _data_model_of(t).get_data_type()
    return value_type(t)


def abi_size_align(lt):
    """(size, alignment) in bytes of an llvmlite type with natural C layout
    (what NVPTX's and x86-64's data layouts give for these types)."""
    ir = _ir()
    if isinstance(lt, ir.IntType):
        size = 1
        while size * 8 < lt.width:
            size *= 2
        return size, size
    if isinstance(lt, ir.HalfType):
        return 2, 2
    if isinstance(lt, ir.FloatType):
        return 4, 4
    if isinstance(lt, ir.DoubleType):
        return 8, 8
    if isinstance(lt, ir.PointerType):
        return 8, 8
    if isinstance(lt, ir.ArrayType):
        size, align = abi_size_align(lt.element)
        return size * lt.count, align
    if isinstance(lt, ir.VectorType):
        size, _ = abi_size_align(lt.element)
        total = size * lt.count
        align = 1
        while align < total:
            align *= 2
        return align, align
    if isinstance(lt, (ir.LiteralStructType, ir.IdentifiedStructType)):
        offset, max_align = 0, 1
        for e in lt.elements:
            size, align = abi_size_align(e)
            if not getattr(lt, "packed", False):
                offset = (offset + align - 1) // align * align
                max_align = max(max_align, align)
            offset += size
        offset = (offset + max_align - 1) // max_align * max_align
        return offset, max_align
    raise NotImplementedError("no size known for the LLVM type %s" % (lt,))
