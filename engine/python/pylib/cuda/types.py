"""numba-style type objects: signatures, casts, and the type hierarchy that
typing functions of the extension API inspect.

Each object carries its canonical numba spelling in ``_cuhost_type`` (e.g.
``"float32"``, ``"array(float32, 1d, C)"``) and hands the engine its type as a
``_cuhost.TypeHandle`` through the ``__cuhost_type__`` protocol (the spelling is
read by the engine's one parser, ``_cuhost.parse_type``), so the engine stays
the single authority on types. Calling a type
with types builds a signature; calling it with a value casts on the host
(``float32(1.5)`` gives ``numpy.float32(1.5)``), as numba does.

The classes follow numba's hierarchy (``Number``, ``Integer``, ``Float``,
``Literal``, ``Array``, ``BaseTuple``, ...) so that typing functions written
for numba (``isinstance(x, types.Integer)``) work unchanged. A ``Type``
subclass defined outside cuhost is an extension type: its spelling is the
one cuda.extending registers with the engine together with its data model.
"""
import os as _os
import sys as _sys

import numpy as _np

import _cuhost

from ._conversion_kind import Conversion as _Conversion

__all__ = []

_PACKAGE_DIR = _os.path.dirname(_os.path.abspath(__file__)) + _os.sep


def _not_bound(*args):
    raise RuntimeError("cuda.types needs the cuda package fully imported (cuda/_late_bound.py)")


# Two pieces the type objects call, whose homes are built on these objects
# (cuda/_ext/typeinfo.py, cuda/np/numpy_support.py): cuda/_late_bound.py
# binds them when `cuda` is imported, so this module imports neither.
_extension_spelling = _not_bound  # (extension type, strict) -> its spelling, registering it
_type_of_dtype = _not_bound  # NumPy dtype -> type object (numpy_support.from_dtype)


def bind_late(extension_spelling, type_of_dtype):
    global _extension_spelling, _type_of_dtype
    _extension_spelling = extension_spelling
    _type_of_dtype = type_of_dtype


class Type:
    """A type, named by its numba spelling (numba's Type(name): str(t) is the name)."""

    mutable = False
    reflected = False
    _cuhost_extension = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Classes defined in cuhost's own package (its files, not every module
        # named cuda.*: numba.cuda.tests is cuda.tests too) spell themselves;
        # any other subclass is a user's extension type (_ext/typeinfo.py).
        module = _sys.modules.get(cls.__module__)
        path = _os.path.abspath(getattr(module, "__file__", None) or "")
        cls._cuhost_extension = not path.startswith(_PACKAGE_DIR)

    def __init__(self, name):
        self.name = name

    @property
    def key(self):
        return self.name

    @property
    def _cuhost_type(self):
        """The spelling the engine parses (an extension type is registered with it first)."""
        return self._spell(True)

    @property
    def __cuhost_type__(self):
        """The engine's TypeHandle of this type: the public protocol through
        which the engine reads a type object (the engine's one parser reads
        the spelling, here, once per use)."""
        return _handle(self)

    def _spell(self, strict):
        # strict=False never fails: an extension type without a data model
        # gets a placeholder spelling (equality and hashing use it).
        if type(self)._cuhost_extension:
            return _extension_spelling(self, strict)
        return self.name

    @property
    def mangling_args(self):
        return self.name, ()

    def __repr__(self):
        return self.name

    def __str__(self):
        return self.name

    def __eq__(self, other):
        if not isinstance(other, Type):
            return NotImplemented
        if type(self)._cuhost_extension or type(other)._cuhost_extension:
            return self.__class__ is other.__class__ and self.key == other.key
        # cuhost's own types are equal when their spellings are.
        return other._spell(False) == self._spell(False)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        if type(self)._cuhost_extension:
            return hash(self.key)
        return hash(self._spell(False))

    def is_precise(self):
        return True

    def unify(self, typingctx, other):
        return None

    def can_convert_to(self, typingctx, other):
        return None

    def can_convert_from(self, typingctx, other):
        return None

    def augment(self, other):
        return None

    @property
    def is_internal(self):
        return not type(self)._cuhost_extension

    def __call__(self, *args):
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        if len(args) == 1:
            return self.cast_python_value(args[0])
        raise TypeError("invalid signature: %r(%s)" % (self, ", ".join(map(repr, args))))

    def cast_python_value(self, value):
        raise TypeError("invalid signature: %r(%r)" % (self, value))

    def __getitem__(self, index):
        """T[:], T[:, ::1], T[::1, :] -> array types of T."""
        return _array_type_of(self, index)


class Dummy(Type):
    """A type with no meaningful run-time representation."""


class Opaque(Dummy):
    """A type whose values are opaque pointers."""


class Hashable(Type):
    pass


class Callable(Type):
    pass


class Scalar(Type):
    """A scalar with a NumPy dtype (numbers and booleans)."""

    def __init__(self, spelling, numpy_name):
        super().__init__(spelling)
        self._numpy = numpy_name

    def cast_python_value(self, value):
        return _np.dtype(self._numpy).type(value)

    @property
    def bitwidth(self):
        return _np.dtype(self._numpy).itemsize * 8


class Boolean(Scalar, Hashable):
    def __init__(self, name="bool"):
        super().__init__(name, "bool_")


class Number(Scalar, Hashable):
    pass


class Integer(Number):
    def __init__(self, name, bitwidth=None, signed=None):
        super().__init__(name, name)
        if bitwidth is not None and bitwidth != self.bitwidth:
            raise ValueError("%s is %d bits wide, not %d" % (name, self.bitwidth, bitwidth))

    @property
    def signed(self):
        return self._numpy.startswith("int")


class Float(Number):
    pass


class Complex(Number):
    @property
    def underlying_float(self):
        return float32 if self.name == "complex64" else float64


class NPDatetime(Scalar):
    """datetime64[unit] (numba's NPDatetime): an int64 count of units, NaT the minimum."""
    __slots__ = ("unit",)

    def __init__(self, unit):
        self.unit = unit
        super().__init__("datetime64[%s]" % unit if unit else "datetime64", "M8[%s]" % unit if unit else "M8")

    def __call__(self, *args):
        if len(args) == 1 and not isinstance(args[0], Type):
            return _np.datetime64(args[0], self.unit) if self.unit else _np.datetime64(args[0])
        return super().__call__(*args)


class NPTimedelta(Scalar):
    """timedelta64[unit] (numba's NPTimedelta)."""
    __slots__ = ("unit",)

    def __init__(self, unit):
        self.unit = unit
        super().__init__("timedelta64[%s]" % unit if unit else "timedelta64", "m8[%s]" % unit if unit else "m8")

    def __call__(self, *args):
        if len(args) == 1 and not isinstance(args[0], Type):
            return _np.timedelta64(args[0], self.unit) if self.unit else _np.timedelta64(args[0])
        return super().__call__(*args)


def _array_type_of(dtype, index):
    """dtype[:], dtype[:, ::1], dtype[::1, :] -> array types (numba's rules)."""
    if not isinstance(index, tuple):
        index = (index,)
    if not all(isinstance(s, slice) and s.start is None and s.stop is None for s in index):
        raise KeyError("Can only index numba types with slices with no start or stop, got %r." % (index,))
    ndim = len(index)
    if index[0].step == 1 and ndim > 1:
        layout = "F"
    elif index[-1].step == 1:
        layout = "C"
    else:
        layout = "A"
    return Array(dtype, ndim, layout)


def _spell(t, strict):
    """The engine spelling of a type object (or of a spelling string)."""
    return t._spell(strict) if isinstance(t, Type) else str(t)


def _handle(t):
    """The engine's TypeHandle of a type object (or of a spelling string)."""
    return t if isinstance(t, _cuhost.TypeHandle) else _cuhost.parse_type(_spell(t, True))


class Literal(Type):
    """A compile-time constant argument (numba's Literal[T](value))."""

    def __init__(self, value):
        self._literal_value = value
        super().__init__("Literal[%s](%r)" % (type(value).__name__, value))

    @property
    def literal_value(self):
        return self._literal_value

    @property
    def literal_type(self):
        return _literal_type(self._literal_value)

    def _spell(self, strict):
        return self.literal_type._spell(strict)

    @property
    def key(self):
        return (type(self._literal_value), self._literal_value)

    def __eq__(self, other):
        return isinstance(other, Literal) and type(self) is type(other) and self.key == other.key

    def __hash__(self):
        return hash(self.key)


class IntegerLiteral(Literal, Integer):
    def __init__(self, value):
        Literal.__init__(self, value)
        self._numpy = "int64"
        self.name = "Literal[int](%d)" % value


class BooleanLiteral(Literal, Boolean):
    def __init__(self, value):
        Literal.__init__(self, value)
        self._numpy = "bool_"
        self.name = "Literal[bool](%s)" % value


class StringLiteral(Literal, Dummy):
    pass


def _literal_type(value):
    if isinstance(value, bool):
        return boolean
    if isinstance(value, int):
        return int64 if -2**63 <= value < 2**63 else uint64
    if isinstance(value, float):
        return float64
    if isinstance(value, complex):
        return complex128
    if isinstance(value, str):
        return Type("unicode_type")
    if isinstance(value, tuple):
        return Tuple([_literal_type(v) for v in value])
    raise TypeError("no literal type for %r" % (value,))


def literal(value):
    """The Literal type of a constant (numba.types.literal)."""
    if isinstance(value, bool):
        return BooleanLiteral(value)
    if isinstance(value, int):
        return IntegerLiteral(value)
    if isinstance(value, str):
        return StringLiteral(value)
    raise TypeError("%r has no literal type in cuhost" % (value,))


def unliteral(t):
    """The type of a Literal's value; any other type unchanged."""
    return t.literal_type if isinstance(t, Literal) else t


def maybe_literal(value):
    try:
        return literal(value)
    except TypeError:
        return None


class NoneType(Opaque):
    def __init__(self, name="none"):
        super().__init__(name)


class Omitted(Opaque):
    """An argument left out, so its default value is used."""

    def __init__(self, value):
        self._value = value
        super().__init__("omitted(default=%r)" % (value,))

    @property
    def value(self):
        return self._value

    @property
    def key(self):
        return type(self._value), id(self._value)


class Record(Type):
    """A NumPy structured dtype as a kernel type (numba's Record).

    The engine derives the layout from the dtype (fields, offsets, nested
    arrays, alignment) and names it in numba's spelling; this object carries
    that spelling and the dtype. Build one with numpy_support.from_dtype.
    """

    def __init__(self, spelling, dtype):
        super().__init__(spelling)
        self.dtype = dtype

    @classmethod
    def _from_dtype(cls, dtype):
        handle = _cuhost._dtype_type(dtype)
        if handle is None or handle.kind != "record":
            raise NotImplementedError("the structured dtype %r has a field with no kernel type in cuhost "
                                      "(fields may be numbers, booleans, nested records and arrays of them)"
                                      % (dtype,))
        return cls(handle.spelling, dtype)

    @property
    def fields(self):
        """{name: (type, offset)} in dtype order, as numba's Record.fields."""
        out = {}
        for name in self.dtype.names:
            sub, offset = self.dtype.fields[name][:2]
            out[name] = (_type_of_dtype(sub), offset)
        return out

    @property
    def size(self):
        return self.dtype.itemsize

    @property
    def aligned(self):
        return bool(self.dtype.isalignedstruct)

    def offset(self, key):
        return self.dtype.fields[key][1]

    def typeof(self, key):
        return self.fields[key][0]


class CharSeq(Type):
    """A NumPy bytes string of fixed width (dtype S<count>)."""

    _char = "char"

    def __init__(self, count):
        self.count = int(count)
        super().__init__("[%s x %d]" % (self._char, self.count))


class UnicodeCharSeq(CharSeq):
    """A NumPy unicode string of fixed width (dtype U<count>, UCS-4 code points)."""

    _char = "unichr"


class NestedArray(Type):
    """An array field of a record (numba's NestedArray): element type and fixed shape."""

    def __init__(self, dtype, shape):
        self.dtype, self.shape = dtype, tuple(shape)
        dims = ", ".join(str(n) for n in self.shape) + ("," if len(self.shape) == 1 else "")
        super().__init__("nestedarray(%s, (%s))" % (dtype, dims))

    def _spell(self, strict):
        dims = ", ".join(str(n) for n in self.shape) + ("," if len(self.shape) == 1 else "")
        return "nestedarray(%s, (%s))" % (_spell(self.dtype, strict), dims)

    @property
    def ndim(self):
        return len(self.shape)


class Buffer(Type):
    pass


class Array(Buffer):
    """array(dtype, ndim, layout) (numba's Array)."""

    def __init__(self, dtype, ndim, layout, readonly=False, name=None, aligned=True):
        if isinstance(layout, str) and layout not in ("C", "F", "A"):
            raise ValueError("invalid array layout %r" % (layout,))
        self.dtype, self.ndim, self.layout = dtype, ndim, layout
        self.mutable = not readonly
        self.aligned = aligned
        prefix = ("" if aligned else "unaligned ") + ("readonly " if readonly else "")
        super().__init__("%sarray(%s, %dd, %s)" % (prefix, dtype, ndim, layout))

    def _spell(self, strict):
        prefix = ("" if self.aligned else "unaligned ") + ("" if self.mutable else "readonly ")
        return "%sarray(%s, %dd, %s)" % (prefix, _spell(self.dtype, strict), self.ndim, self.layout)

    @property
    def readonly(self):
        return not self.mutable

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None, aligned=None):
        return Array(self.dtype if dtype is None else dtype, self.ndim if ndim is None else ndim,
                     self.layout if layout is None else layout, self.readonly if readonly is None else readonly,
                     aligned=self.aligned if aligned is None else aligned)

    @property
    def is_c_contig(self):
        return self.layout == "C" or (self.ndim <= 1 and self.layout in "CF")

    @property
    def is_f_contig(self):
        return self.layout == "F" or (self.ndim <= 1 and self.layout in "CF")


class Signature:
    """return_type(args...) (numba's typing.Signature)."""

    def __init__(self, return_type, args, recvr=None, pysig=None):
        self.return_type = return_type
        self.args = tuple(args)
        self.recvr = recvr
        self.pysig = pysig

    @property
    def _cuhost_type(self):
        return "%s(%s)" % (_spell(self.return_type, True), ", ".join(_spell(a, True) for a in self.args))

    @property
    def __cuhost_signature__(self):
        """(return TypeHandle, (argument TypeHandles...)): the public protocol
        through which the engine reads a signature object."""
        return _handle(self.return_type), tuple(_handle(a) for a in self.args)

    def replace(self, **kwargs):
        out = Signature(self.return_type, self.args, self.recvr, self.pysig)
        for k, v in kwargs.items():
            setattr(out, k, tuple(v) if k == "args" else v)
        return out

    def as_function(self):
        return Signature(self.return_type, ((self.recvr,) if self.recvr else ()) + self.args)

    def __repr__(self):
        return "%s(%s)" % (self.return_type, ", ".join(str(a) for a in self.args))

    __str__ = __repr__

    def __eq__(self, other):
        return (isinstance(other, Signature) and other.return_type == self.return_type
                and other.args == self.args)

    def __hash__(self):
        return hash((self.return_type, self.args))


class CPointer(Type):
    """CPointer(dtype): a raw pointer (ffi.from_buffer, C-ABI parameters)."""

    def __init__(self, dtype, addrspace=None):
        self.dtype = dtype
        self.addrspace = addrspace
        super().__init__("CPointer(%s)" % (dtype,))

    def _spell(self, strict):
        return "CPointer(%s)" % _spell(self.dtype, strict)


class RawPointer(Opaque):
    """numba's RawPointer: a pointer to memory of no type (types.voidptr,
    "void*"): passed and cast by C-ABI functions and @intrinsic code."""

    def _spell(self, strict):
        return "voidptr"


class Optional(Type):
    """OptionalType(T): a T or None."""

    def __init__(self, typ):
        self.type = typ
        super().__init__("OptionalType(%s)" % (typ,))

    def _spell(self, strict):
        return "OptionalType(%s)" % _spell(self.type, strict)


class BaseTuple(Type):
    """A tuple type: iterable over its element types, as numba's."""

    def __iter__(self):
        return iter(self.types)

    def __len__(self):
        return len(self.types)

    def __getitem__(self, i):
        return self.types[i]

    @property
    def count(self):
        return len(self.types)


class UniTuple(BaseTuple):
    """UniTuple(dtype, count): a tuple of `count` elements of one type."""

    def __init__(self, dtype, count):
        super().__init__("UniTuple(%s x %d)" % (dtype, count))
        self.dtype = dtype
        self.types = (dtype,) * count

    @property
    def count(self):
        return len(self.types)

    def _spell(self, strict):
        return "UniTuple(%s x %d)" % (_spell(self.dtype, strict), len(self.types))


class Tuple(BaseTuple):
    """Tuple(types): a tuple of mixed element types (a UniTuple when they agree, as numba)."""

    def __new__(cls, types):
        types = tuple(types)
        if types and all(t == types[0] for t in types):
            return UniTuple(types[0], len(types))
        return super().__new__(cls)

    def __init__(self, types):
        types = tuple(types)
        super().__init__("Tuple(%s)" % ", ".join(str(t) for t in types))
        self.types = types

    def _spell(self, strict):
        return "Tuple(%s)" % ", ".join(_spell(t, strict) for t in self.types)


class NumberClass(Callable):
    """A scalar type used as a value (np.float32 inside a kernel)."""

    def __init__(self, instance_type):
        self.instance_type = instance_type
        super().__init__("class(%s)" % (instance_type,))


class TypeRef(Dummy):
    """A type used as a value (numba's TypeRef)."""

    def __init__(self, instance_type):
        self.instance_type = instance_type
        super().__init__("typeref[%s]" % (instance_type,))


class Function(Callable, Opaque):
    """A function value (numba's Function type over a typing template)."""

    def __init__(self, template):
        self.templates = (template,)
        self.typing_key = getattr(template, "key", template)
        super().__init__("Function(%s)" % (self.typing_key,))


class Phantom(Dummy):
    pass


class VarArg(Type):
    """Any number of trailing arguments of `dtype` (lowering registrations)."""

    def __init__(self, dtype):
        self.dtype = dtype
        super().__init__("*%s" % (dtype,))


class BoundFunction(Callable, Opaque):
    """A method bound to a value (numba's BoundFunction over a method template)."""

    def __init__(self, template, this):
        self.template = template
        self.this = this
        super().__init__("BoundFunction(%s for %s)" % (getattr(template, "key", template), this))


# The scalar types, one object each (numba's types.int32, ...).
boolean = Boolean("bool")
int8, int16, int32, int64 = Integer("int8"), Integer("int16"), Integer("int32"), Integer("int64")
uint8, uint16, uint32, uint64 = Integer("uint8"), Integer("uint16"), Integer("uint32"), Integer("uint64")
float32, float64 = Float("float32", "float32"), Float("float64", "float64")
complex64, complex128 = Complex("complex64", "complex64"), Complex("complex128", "complex128")
bool_ = boolean
__all__ += ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float32", "float64", "complex64", "complex128", "boolean", "bool_"]

b1 = boolean
i1, i2, i4, i8 = int8, int16, int32, int64
u1, u2, u4, u8 = uint8, uint16, uint32, uint64
f4, f8 = float32, float64
c8, c16 = complex64, complex128
intp = int64
uintp = uint64
byte = uint8
float_ = float32
double = float64
intc = int32
uintc = uint32
none = NoneType("none")
void = none
Any = Phantom("any")
__all__ += ["b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8", "c8", "c16",
            "intp", "uintp", "byte", "float_", "double", "intc", "uintc", "void", "none", "NoneType",
            "NPDatetime", "NPTimedelta",
            "CPointer", "Optional", "UniTuple", "Tuple", "Type", "Array", "Signature", "Record", "NestedArray"]

# numba's C-compatible aliases and the number domains (sets of types).
char = int8
uchar = uint8
short = int16
ushort = uint16
int_ = long_ = longlong = int64
uint = ulong = ulonglong = uint64
signed_domain = frozenset([int8, int16, int32, int64])
unsigned_domain = frozenset([uint8, uint16, uint32, uint64])
integer_domain = signed_domain | unsigned_domain
real_domain = frozenset([float32, float64])
complex_domain = frozenset([complex64, complex128])
number_domain = real_domain | integer_domain | complex_domain
__all__ += ["char", "uchar", "short", "ushort", "int_", "long_", "longlong", "uint", "ulong", "ulonglong"]

class EnumMember(Type):
    """The type of the members of an Enum class (numba's EnumMember): a
    member is its value (of type `dtype`) in compiled code."""

    basename = "Enum"

    def __init__(self, cls, dtype):
        if not isinstance(cls, type) or not isinstance(dtype, Type):
            raise TypeError("%s(cls, dtype) needs an Enum class and a type" % type(self).__name__)
        self.instance_class = cls
        self.dtype = dtype
        super().__init__("%s<%s>(%s)" % (self.basename, dtype, cls.__name__))

    @property
    def key(self):
        return self.instance_class, self.dtype

    def __eq__(self, other):
        return type(self) is type(other) and self.key == other.key

    def __hash__(self):
        return hash(self.key)


class IntEnumMember(EnumMember):
    """The type of the members of an IntEnum class: integers wherever one converts."""

    basename = "IntEnum"

    def can_convert_to(self, typingctx, other):
        conv = typingctx.can_convert(self.dtype, other)
        if conv is None:
            return None
        return max(conv, _Conversion.safe)



# numba type names cuhost's engine has no type for yet (not exported by `*`).
from ._missing import missing as _missing  # noqa: E402

_missing(globals(), """
    List Set ListType DictType NamedTuple
    NamedUniTuple Dispatcher ExternalFunction FunctionType Bytes
    range_iter32_type range_iter64_type range_state32_type range_state64_type slice2_type slice3_type
    pyobject unicode_type string undefined ffi_forced_object
""")

voidptr = RawPointer("void*")
__all__ += ["RawPointer", "voidptr"]

# Half precision (engine/sema/typing/half.cpp): IEEE float16 and bfloat16.
float16 = Float("float16", "float16")
f2 = half = float16


class _BFloat16(Float):
    """bfloat16: NumPy has no such dtype; host-side casts use ml_dtypes' when installed."""

    def cast_python_value(self, value):
        try:
            # Lazy and optional: ml_dtypes gives host-side bfloat16 casts where installed.
            import ml_dtypes
        except ImportError:
            raise NotImplementedError("bfloat16(x) on the host needs the ml_dtypes package "
                                      "(inside kernels it needs nothing)") from None
        return ml_dtypes.bfloat16(value)

    @property
    def bitwidth(self):
        return 16


bfloat16 = _BFloat16("bfloat16", "bfloat16")
__all__ += ["float16", "f2", "bfloat16"]
