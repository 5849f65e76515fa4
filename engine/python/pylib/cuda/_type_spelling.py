"""Type spellings back into cuda.types objects.

The engine names every type by its numba spelling ("array(float32, 1d, C)",
"UniTuple(int64 x 2)", "Tuple(float64, int32)", an extension type's
registered name); Python-side code (signatures, typeof, the extension API's
typing functions) wants the type objects. This is the one reader of those
spellings on the Python side; the engine's ir/type_parser.cpp is the other.
"""
import re as _re

from . import types as _types

_IDENT = _re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_NUMBER = _re.compile(r"[0-9]+")
_CHAR_SEQ = _re.compile(r"\[(char|unichr) x ([0-9]+)\]")


class _Reader:
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def fail(self):
        raise ValueError("cannot read the type spelling %r (at %d)" % (self.text, self.pos))

    def skip(self):
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1

    def peek(self, s):
        self.skip()
        return self.text.startswith(s, self.pos)

    def expect(self, s):
        if not self.peek(s):
            self.fail()
        self.pos += len(s)

    def match(self, regex):
        self.skip()
        m = regex.match(self.text, self.pos)
        if not m:
            self.fail()
        self.pos = m.end()
        return m.group(0)

    def balanced(self, start):
        """The text from `start` to the end of the parenthesized group that follows."""
        depth = 0
        i = self.pos
        while i < len(self.text):
            c = self.text[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
                if depth == 0:
                    self.pos = i + 1
                    return self.text[start:self.pos]
            i += 1
        self.fail()

    def type(self):
        self.skip()
        ext = _extension_at(self.text, self.pos)
        if ext is not None:
            spelling, obj = ext
            self.pos += len(spelling)
            return obj
        start = self.pos
        seq = _CHAR_SEQ.match(self.text, self.pos)
        if seq:  # "[char x 12]", "[unichr x 3]": fixed-width strings
            self.pos = seq.end()
            cls = _types.UnicodeCharSeq if seq.group(1) == "unichr" else _types.CharSeq
            return cls(int(seq.group(2)))
        readonly = unaligned = False
        if self.text.startswith("unaligned ", self.pos):
            unaligned = True
            self.pos += len("unaligned ")
        if self.text.startswith("readonly ", self.pos):
            readonly = True
            self.pos += len("readonly ")
        name = self.match(_IDENT)
        if name == "array" and self.peek("("):
            self.expect("(")
            dtype = self.type()
            self.expect(",")
            ndim = int(self.match(_NUMBER))
            self.expect("d")
            self.expect(",")
            layout = self.match(_IDENT)
            self.expect(")")
            return _types.Array(dtype, ndim, layout, readonly=readonly, aligned=not unaligned)
        if name == "UniTuple" and self.peek("("):
            self.expect("(")
            dtype = self.type()
            self.expect("x")
            count = int(self.match(_NUMBER))
            self.expect(")")
            return _types.UniTuple(dtype, count)
        if name == "Tuple" and self.peek("("):
            self.expect("(")
            items = []
            while not self.peek(")"):
                items.append(self.type())
                if self.peek(","):
                    self.expect(",")
            self.expect(")")
            return _types.Tuple(items)
        if name == "class" and self.peek("("):
            self.expect("(")
            inner = self.type()
            self.expect(")")
            return _types.NumberClass(inner)
        if name in ("CPointer", "OptionalType") and self.peek("("):
            self.expect("(")
            inner = self.type()
            self.expect(")")
            return _types.CPointer(inner) if name == "CPointer" else _types.Optional(inner)
        if name == "nestedarray" and self.peek("("):
            self.expect("(")
            dtype = self.type()
            self.expect(",")
            self.skip()
            shape = tuple(int(x) for x in _NUMBER.findall(self.balanced(self.pos)))
            self.expect(")")
            return _types.NestedArray(dtype, shape)
        if name in ("datetime64", "timedelta64"):
            cls = _types.NPDatetime if name == "datetime64" else _types.NPTimedelta
            if not self.peek("["):
                return cls("")
            self.expect("[")
            unit = self.match(_IDENT)
            self.expect("]")
            return cls(unit)
        if self.peek("(") or self.peek("["):
            # Records, Literal[...](...), Module(...), Function(...), class(...):
            # the whole group is the spelling.
            while self.peek("(") or self.peek("["):
                self.skip()
                self.balanced(start)
            spelling = self.text[start:self.pos]
            return _known(spelling)
        return _named(name)


def _named(name):
    if name in ("none", "void"):
        return _types.none
    if name == "bool":
        return _types.boolean
    t = getattr(_types, name, None)
    if isinstance(t, _types.Type):
        return t
    from . import vector_types
    t = getattr(vector_types, name, None)
    if isinstance(t, _types.Type):
        return t
    from ._internal import cuda_fp8
    t = getattr(cuda_fp8, name, None)
    if isinstance(t, _types.Type):
        return t
    return _types.Type(name)


def _known(spelling):
    if spelling.startswith("Record("):
        from .np.numpy_support import _record_by_spelling
        rec = _record_by_spelling(spelling)
        if rec is not None:
            return rec
    return _types.Type(spelling)


def _extension_at(text, pos):
    from ._ext import typeinfo
    return typeinfo.spelling_at(text, pos)


def to_type(spelling):
    """The cuda.types object a spelling names."""
    r = _Reader(spelling)
    t = r.type()
    r.skip()
    if r.pos != len(spelling):
        r.fail()
    return t
