"""numba's kinds of implicit conversion between types (typeconv's
Conversion) and the typing context's can_convert over cuhost's Python type
objects: what extension typing code and numba's typing-context API ask.
The engine's own overload resolution has its C++ twin (sema/conversions.h).
"""
import enum as _enum

from .. import types


class Conversion(_enum.IntEnum):
    """How a value converts, best first (numba.core.typeconv.Conversion)."""

    exact = 1
    promote = 2
    safe = 3
    unsafe = 4
    nil = 99


def _int_to_int(a, b):
    if a.signed == b.signed:
        return Conversion.promote if b.bitwidth > a.bitwidth else Conversion.unsafe
    if not a.signed and b.bitwidth > a.bitwidth:  # unsigned into a wider signed one
        return Conversion.safe
    return Conversion.unsafe


def _mantissa_bits(t):
    return {16: 11, 32: 24, 64: 53}.get(t.bitwidth, 0)


def number_conversion(fromty, toty):
    """The Conversion between two scalars (numbers or booleans), or None."""
    if fromty == toty:
        return Conversion.exact
    if isinstance(fromty, types.Boolean):
        return Conversion.safe
    if isinstance(toty, types.Boolean):
        return Conversion.unsafe
    if isinstance(fromty, types.Complex):
        if not isinstance(toty, types.Complex):
            return None
        return Conversion.promote if toty.bitwidth > fromty.bitwidth else Conversion.unsafe
    if isinstance(fromty, types.Integer):
        if isinstance(toty, types.Integer):
            return _int_to_int(fromty, toty)
        width = _mantissa_bits(toty if isinstance(toty, types.Float) else toty.underlying_float)
        return Conversion.safe if fromty.bitwidth - int(fromty.signed) <= width else Conversion.unsafe
    if isinstance(fromty, types.Float):
        if isinstance(toty, types.Integer):
            return Conversion.unsafe
        target = toty if isinstance(toty, types.Float) else toty.underlying_float
        if target.bitwidth < fromty.bitwidth:
            return Conversion.unsafe
        if isinstance(toty, types.Complex):
            return Conversion.safe
        return Conversion.promote
    return None


def can_convert(typingctx, fromty, toty):
    """numba's BaseContext.can_convert: a Conversion, or None when there is none."""
    if fromty == toty:
        return Conversion.exact
    for ask in (lambda: fromty.can_convert_to(typingctx, toty), lambda: toty.can_convert_from(typingctx, fromty)):
        conv = ask()
        if conv is not None:
            return conv
    scalars = (types.Number, types.Boolean)
    if isinstance(fromty, scalars) and isinstance(toty, scalars):
        return number_conversion(fromty, toty)
    return None
