"""Type spellings and handles into cuda.types objects.

The engine names every type by its numba spelling ("array(float32, 1d, C)",
"UniTuple(int64 x 2)", an extension type's registered name). Python never
reads those spellings itself: the engine's one parser (ir/type_parser.cpp,
as `_cuhost.parse_type`) turns a spelling into a `_cuhost.TypeHandle`, and
this module builds the cuda.types object from the handle's fields.
"""
import _cuhost

from . import types as _types


def _not_bound(spelling):
    raise RuntimeError("cuda._type_spelling needs the cuda package fully imported (cuda/_late_bound.py)")


# The type object of an extension type's spelling, or None: its home,
# cuda/_ext/typeinfo.py, is built on this module; cuda/_late_bound.py binds
# it when `cuda` is imported.
_extension_type = _not_bound


def bind_late(extension_type):
    global _extension_type
    _extension_type = extension_type


def _named(name):
    """The cuda.types object with this name (scalars, vector types, fp8 types, none)."""
    if name in ("none", "void"):
        return _types.none
    if name == "bool":
        return _types.boolean
    t = getattr(_types, name, None)
    if isinstance(t, _types.Type):
        return t
    # At call time: leaves the order in which cuda/__init__ loads the type modules as it is.
    from . import vector_types
    t = getattr(vector_types, name, None)
    if isinstance(t, _types.Type):
        return t
    # Lazy: the fp8 types are needed only by scripts that use them.
    from ._internal import cuda_fp8
    t = getattr(cuda_fp8, name, None)
    if isinstance(t, _types.Type):
        return t
    return _types.Type(name)


def _record(spelling):
    # At call time: leaves the order in which cuda/__init__ loads the type modules as it is.
    from .np.numpy_support import _record_by_spelling
    rec = _record_by_spelling(spelling)
    return rec if rec is not None else _types.Type(spelling)


def _extension(spelling):
    t = _extension_type(spelling)
    return t if t is not None else _types.Type(spelling)


def from_handle(h):
    """The cuda.types object of a _cuhost.TypeHandle."""
    kind = h.kind
    if kind == "named":
        return _named(h.spelling)
    if kind == "array":
        return _types.Array(from_handle(h.dtype), h.ndim, h.layout, readonly=h.readonly, aligned=h.aligned)
    if kind == "tuple":
        items = h.items
        if h.uniform:
            return _types.UniTuple(from_handle(items[0]), len(items))
        return _types.Tuple([from_handle(t) for t in items])
    if kind == "cpointer":
        if h.spelling == "void*":
            return _types.voidptr
        return _types.CPointer(from_handle(h.inner))
    if kind == "optional":
        return _types.Optional(from_handle(h.inner))
    if kind == "class":
        return _types.NumberClass(from_handle(h.inner))
    if kind == "nestedarray":
        return _types.NestedArray(from_handle(h.dtype), h.shape)
    if kind == "datetime64":
        return _types.NPDatetime(h.unit)
    if kind == "timedelta64":
        return _types.NPTimedelta(h.unit)
    if kind == "charseq":
        return (_types.UnicodeCharSeq if h.unicode else _types.CharSeq)(h.length)
    if kind == "record":
        return _record(h.spelling)
    if kind == "extension":
        return _extension(h.spelling)
    return _types.Type(h.spelling)


def to_type(spelling):
    """The cuda.types object a spelling names; a spelling the engine does not
    read as a type (a literal's, a module's, a function's) stays an opaque
    cuda.types.Type of that name."""
    try:
        handle = _cuhost.parse_type(spelling)
    except (NameError, SyntaxError, TypeError, ValueError):
        return _types.Type(spelling)
    return from_handle(handle)
