"""numba's kinds of implicit conversion between types (typeconv's
Conversion) and the typing context's can_convert over cuhost's Python type
objects: what extension typing code and numba's typing-context API ask.

The relation itself is the engine's (engine/sema/conversions.cpp, reached
through _cuhost._conversion): the same one kernels' typing, device-function
calls and the dispatchers' overload choice use. Only types the engine does
not know (a user's extension types) fall back on their own
can_convert_to / can_convert_from, as numba's typing context does.
"""
import _cuhost

from .. import types
from .._conversion_kind import Conversion


def _engine_conversion(fromty, toty):
    """The engine relation's Conversion for two of cuhost's own types, else None."""
    if not (isinstance(fromty, types.Type) and isinstance(toty, types.Type)):
        return None
    if type(fromty)._cuhost_extension or type(toty)._cuhost_extension:
        return None
    if isinstance(toty, types.Literal):  # nothing converts to a literal (numba)
        return None
    if isinstance(fromty, types.Literal) and not isinstance(fromty, (types.IntegerLiteral, types.BooleanLiteral)):
        return None
    literal = isinstance(fromty, types.Literal)
    try:
        handles = fromty.__cuhost_type__, toty.__cuhost_type__
    except (NameError, SyntaxError, TypeError, ValueError):  # a type the engine does not know: no engine rule
        return None
    kind = _cuhost._conversion(*handles, literal)
    return None if kind is None else Conversion(kind)


def can_convert(typingctx, fromty, toty):
    """numba's BaseContext.can_convert: a Conversion, or None when there is none."""
    if fromty == toty:
        return Conversion.exact
    conv = _engine_conversion(fromty, toty)
    if conv is not None:
        return conv
    forward = fromty.can_convert_to(typingctx, toty)
    backward = toty.can_convert_from(typingctx, fromty)
    if backward is None:
        return forward
    if forward is None:
        return backward
    return min(forward, backward)


def _rate_arguments(typingctx, actualargs, formalargs, unsafe_casting=True, exact_match_required=False):
    """numba's BaseContext._rate_arguments: (unsafe, safe, promote) counts, or None."""
    if len(actualargs) != len(formalargs):
        return None
    counts = {Conversion.unsafe: 0, Conversion.safe: 0, Conversion.promote: 0, Conversion.exact: 0}
    for actual, formal in zip(actualargs, formalargs):
        conv = typingctx.can_convert(actual, formal)
        if conv is None or (not unsafe_casting and conv >= Conversion.unsafe):
            return None
        if exact_match_required and conv != Conversion.exact:
            return None
        counts[conv] += 1
    return counts[Conversion.unsafe], counts[Conversion.safe], counts[Conversion.promote]


def resolve_overload(typingctx, key, cases, args, allow_ambiguous=True, unsafe_casting=True,
                     exact_match_required=False):
    """numba's BaseContext.resolve_overload: the case the arguments fit best
    (the first declared among equals), or None; a tie is a TypeError when
    allow_ambiguous is False."""
    rated = []
    for case in cases:
        rating = _rate_arguments(typingctx, args, case.args, unsafe_casting, exact_match_required)
        if rating is not None:
            rated.append((rating, case))
    if not rated:
        return None
    rated.sort(key=lambda item: item[0])  # stable: declaration order among equals
    best_rating, best = rated[0]
    if not allow_ambiguous:
        tied = [case for rating, case in rated if rating == best_rating]
        if len(tied) > 1:
            listed = "\n".join("%s -> %s" % (tuple(case.args), case.return_type) for case in tied)  # numba's str(sig)
            raise TypeError("Ambiguous overloading for %s %s:\n%s" % (key, tuple(args), listed))
    return best
