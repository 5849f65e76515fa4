"""numba's kinds of implicit conversion (typeconv's Conversion), in a module
of their own below the type objects: cuda/types.py ranks IntEnum members'
conversions with them and cuda/_ext/conversions.py (numba's typing-context
can_convert, which needs the type objects) returns them."""
import enum as _enum


class Conversion(_enum.IntEnum):
    """How a value converts, best first (numba.core.typeconv.Conversion)."""

    exact = 1
    promote = 2
    safe = 3
    unsafe = 4
    nil = 99
