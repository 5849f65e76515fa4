"""numba.cuda.typing.typeof: the type a Python value has as a kernel argument.

cuhost's engine decides (the same rule the launcher uses,
engine/python/typeof.cpp); this module turns its answer into a type object.
"""
import enum as _enum
import functools as _functools

import _cuhost

from .. import types as _types
from ..compiler import _to_type
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
    spelling = _cuhost._typeof(val)
    if spelling is None:
        raise ValueError("Cannot determine Numba type of %r" % (type(val),))
    if spelling.startswith(("Record(", "array(Record(", "readonly array(Record(")):
        return _record_type(val, spelling)
    return _to_type(spelling)


def _record_type(val, spelling):
    """A record or an array of records as type objects that know their dtype."""

    dtype = getattr(val, "dtype", None)
    if dtype is None and hasattr(val, "_view"):  # a DeviceRecord
        dtype = val._view.dtype
    rec = from_dtype(dtype)
    if spelling.startswith("Record("):
        return rec
    ndim, layout = spelling[:-1].rsplit(", ", 2)[1:]
    return _types.Array(rec, int(ndim[:-1]), layout, readonly=spelling.startswith("readonly"))

