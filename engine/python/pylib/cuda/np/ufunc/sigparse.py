"""Parsing of the two kinds of signature a ufunc decorator takes.

`parse_signature` reads a generalized ufunc's layout string such as
"(m,n),(n,p)->(m,p)" into the core dimension names of each input and output
(numba.cuda.np.ufunc.sigparse.parse_signature). `normalize_signature` turns
a type signature (a string like "float64(float64, uint32)", which the
engine's type parser reads, a cuda.types.Signature or a tuple of argument
types) into (argument types, return type or None).
"""
import re as _re

import numpy as np

import _cuhost

from ... import types as _types
from ..._type_spelling import from_handle

_DIMS = _re.compile(r"\(\s*([A-Za-z_][A-Za-z_0-9]*(?:\s*,\s*[A-Za-z_][A-Za-z_0-9]*)*)?\s*,?\s*\)")


def _parse_side(text, whole):
    groups = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _DIMS.match(text, pos)
        if m is None:
            bad = text[pos:].split()[0] if text[pos:].split() else text[pos:]
            raise ValueError('bad token in signature "%s" (in the layout "%s")' % (bad[:1] if bad else bad, whole))
        names = m.group(1)
        groups.append(tuple(n.strip() for n in names.split(",")) if names else ())
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos < len(text):
            if text[pos] != ",":
                raise ValueError('bad token in signature "%s" (in the layout "%s")' % (text[pos], whole))
            pos += 1
            while pos < len(text) and text[pos].isspace():
                pos += 1
    return groups


def parse_signature(sig):
    """(inputs, outputs): lists of tuples of core dimension names.

    A trailing comma after a group is allowed; every output dimension must
    appear among the inputs (NameError otherwise)."""
    if not isinstance(sig, str):
        raise TypeError("a gufunc layout is a string such as '(m,n),(n)->(m)', not %s" % type(sig).__name__)
    if "->" not in sig:
        raise ValueError('bad gufunc layout "%s": "->" separates the inputs from the outputs' % sig)
    ins, _, outs = sig.partition("->")
    inputs = _parse_side(ins, sig)
    outputs = _parse_side(outs, sig)
    known = set()
    for grp in inputs:
        known.update(grp)
    undefined = sorted({s for grp in outputs for s in grp} - known)
    if undefined:
        raise NameError("undefined output symbols: %s" % ",".join(undefined))
    return inputs, outputs


def _check_type(t, sig):
    if not isinstance(t, _types.Type):
        raise TypeError("invalid type in signature %r: %r" % (sig, t))
    return t


def normalize_signature(sig):
    """(argument types tuple, return type or None) of a type signature."""
    original = sig
    if isinstance(sig, str):
        # The engine's one type parser reads the text; types come back as handles.
        try:
            ret, args = _cuhost.parse_signature(sig)
        except Exception as e:
            raise TypeError("invalid signature %r: %s" % (original, e)) from None
        return tuple(from_handle(a) for a in args), None if ret is None else from_handle(ret)
    if isinstance(sig, _types.Signature):
        return tuple(_check_type(a, original) for a in sig.args), sig.return_type
    if isinstance(sig, _types.Type):
        return (sig,), None
    if isinstance(sig, tuple):
        return tuple(_check_type(a, original) for a in sig), None
    raise TypeError("invalid signature %r: expected a string, a signature such as float32(float32) "
                    "or a tuple of argument types" % (original,))


def dtype_of(t):
    """The NumPy dtype of a scalar type or of an array type's elements."""
    if isinstance(t, _types.Array):
        t = t.dtype
    numpy_name = getattr(t, "_numpy", None)
    if numpy_name is None:
        raise TypeError("%s has no NumPy dtype: ufunc signatures take numbers and arrays of numbers" % t)
    return np.dtype(numpy_name)
