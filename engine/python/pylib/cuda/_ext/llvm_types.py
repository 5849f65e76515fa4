"""The LLVM representation of cuhost's types as llvmlite types.

The engine is the one home of how values are represented and how big they
are (codegen's llvm_type_of and llvm_memory_type_of, the target's
DataLayout). `_cuhost._llvm_layout(handle)` hands its decision over as a
description, nested tuples such as ("int", 1), ("ptr", ("float",)) or
("struct", (...), packed) (engine/python/llvm_layout_api.cpp); this module
only turns descriptions into llvmlite objects (llvmlite cannot parse LLVM's
type text) and llvmlite types back into descriptions, whose size and
alignment `_cuhost._llvm_size_align` gives. Extension types are represented
by their data models, wherever the engine meets one ("extension" entries).
tests/scripts/extending/data_models.py checks the result against the
engine's own LLVM types.
"""
import _cuhost

from .. import types as _types


def _not_bound(*args):
    raise RuntimeError("cuda._ext.llvm_types needs the cuda package fully imported (cuda/_late_bound.py)")


# The data model of an extension type (models.py's default_manager.lookup)
# and the type object of an extension type's spelling (typeinfo.py): both
# are built on this module, so cuda/_late_bound.py binds them when `cuda` is
# imported.
_data_model_of = _not_bound
_extension_type = _not_bound


def bind_late(data_model_of, extension_type):
    global _data_model_of, _extension_type
    _data_model_of = data_model_of
    _extension_type = extension_type


def _ir():
    # Lazy: llvmlite is optional, needed only by extension code generation.
    from llvmlite import ir

    return ir


_layouts = {}  # spelling -> the engine's (value, memory, size, align)


def _engine_layout(t):
    spelling = t._cuhost_type
    try:
        return _layouts[spelling]
    except KeyError:
        pass
    try:
        handle = _cuhost.parse_type(spelling)
    except (NameError, SyntaxError, TypeError, ValueError):
        # Not a type of the engine (a module, a function, a type object):
        # its values carry no bits, as none's do.
        handle = _cuhost.parse_type("none")
    layout = _layouts[spelling] = _cuhost._llvm_layout(handle)
    return layout


def _build(d):
    """The llvmlite type of a description."""
    ir = _ir()
    tag = d[0]
    if tag == "int":
        return ir.IntType(d[1])
    if tag == "half":
        return ir.HalfType()
    if tag == "float":
        return ir.FloatType()
    if tag == "double":
        return ir.DoubleType()
    if tag == "bfloat":
        raise NotImplementedError("bfloat16 values have no llvmlite type (llvmlite has no bfloat)")
    if tag == "ptr":
        return _build(d[1]).as_pointer()
    if tag == "array":
        return ir.ArrayType(_build(d[2]), d[1])
    if tag == "vector":
        return ir.VectorType(_build(d[2]), d[1])
    if tag == "struct":
        return ir.LiteralStructType([_build(e) for e in d[1]], packed=d[2])
    if tag == "extension":
        model = _data_model_of(_extension_type(d[1].spelling))
        return model.get_data_type() if d[2] else model.get_value_type()
    raise ValueError("unknown LLVM type description %r" % (d,))


def _describe(lt):
    """The description of an llvmlite type (pointers without their pointee)."""
    ir = _ir()
    if isinstance(lt, ir.IntType):
        return ("int", lt.width)
    if isinstance(lt, ir.HalfType):
        return ("half",)
    if isinstance(lt, ir.FloatType):
        return ("float",)
    if isinstance(lt, ir.DoubleType):
        return ("double",)
    if isinstance(lt, ir.PointerType):
        return ("ptr",)
    if isinstance(lt, ir.ArrayType):
        return ("array", lt.count, _describe(lt.element))
    if isinstance(lt, ir.VectorType):
        return ("vector", lt.count, _describe(lt.element))
    if isinstance(lt, (ir.LiteralStructType, ir.IdentifiedStructType)):
        return ("struct", tuple(_describe(e) for e in lt.elements), bool(getattr(lt, "packed", False)))
    raise NotImplementedError("no size known for the LLVM type %s" % (lt,))


def value_type(t):
    """The llvmlite type of values of `t` in registers."""
    if isinstance(t, _types.Literal):
        return value_type(t.literal_type)
    if type(t)._cuhost_extension:
        return _data_model_of(t).get_value_type()
    return _build(_engine_layout(t)[0])


def data_type(t):
    """The llvmlite type of values of `t` in memory (booleans are bytes,
    records their bytes)."""
    if isinstance(t, _types.Literal):
        return data_type(t.literal_type)
    if type(t)._cuhost_extension:
        return _data_model_of(t).get_data_type()
    return _build(_engine_layout(t)[1])


def abi_size_align(lt):
    """(size, alignment) in bytes of an llvmlite type under the target's DataLayout."""
    return tuple(_cuhost._llvm_size_align(_describe(lt)))
