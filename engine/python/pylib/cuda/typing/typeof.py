"""numba.cuda.typing.typeof: the type a Python value has as a kernel argument.

cuhost's engine decides (the same rule the launcher uses,
engine/python/typeof.cpp); this module turns its answer into a type object.
"""
import enum as _enum
import functools as _functools

import _cuhost

from .. import types as _types
from .._type_spelling import from_handle
from ..np.numpy_support import from_dtype


class Purpose(_enum.Enum):
    """Why a value is typed: as a kernel argument or as a frozen constant."""
    argument = 1
    constant = 2


class _Context:
    """What typeof_impl functions get as `c`."""

    def __init__(self, purpose):
        self.purpose = purpose


@_functools.singledispatch
def typeof_impl(val, c):
    """The type of `val` for the extension API: register a class's typing
    with ``@typeof_impl.register(MyClass)``; None defers to cuhost's own rules."""
    return None


def typeof(val, purpose=Purpose.argument):
    """The numba type of `val` (ValueError when it has none)."""

    if typeof_impl.dispatch(type(val)) is not typeof_impl.dispatch(object):
        t = typeof_impl(val, _Context(purpose))
        if t is not None:
            return t
    handle = _cuhost._typeof(val)  # the engine's type, as a _cuhost.TypeHandle
    if handle is None:
        raise ValueError("Cannot determine Numba type of %r" % (type(val),))
    if handle.kind == "record" or (handle.kind == "array" and handle.dtype.kind == "record"):
        return _record_type(val, handle)
    return from_handle(handle)


def _record_type(val, handle):
    """A record or an array of records as type objects that know their dtype."""

    dtype = getattr(val, "dtype", None)
    if dtype is None and hasattr(val, "_view"):  # a DeviceRecord
        dtype = val._view.dtype
    rec = from_dtype(dtype)
    if handle.kind == "record":
        return rec
    return _types.Array(rec, handle.ndim, handle.layout, readonly=handle.readonly)
