"""numba.cuda.typing.typeof: the type a Python value has as a kernel argument.

cuhost's engine decides (the same rule the launcher uses,
engine/python/typeof.cpp); this module turns its answer into a type object.
"""
import enum as _enum

import _cuhost

from .._missing import missing as _missing


class Purpose(_enum.Enum):
    """Why a value is typed: as a kernel argument or as a frozen constant."""
    argument = 1
    constant = 2


def typeof(val, purpose=Purpose.argument):
    """The numba type of `val` (ValueError when it has none)."""
    from ..compiler import _to_type

    spelling = _cuhost._typeof(val)
    if spelling is None:
        raise ValueError("Cannot determine Numba type of %r" % (type(val),))
    return _to_type(spelling)


_missing(globals(), "typeof_impl")
