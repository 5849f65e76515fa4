"""numba-style type objects for signatures and casts.

Each object carries its canonical numba spelling in ``_cuhost_type`` (e.g.
``"float32"``, ``"array(float32, 1d, C)"``); the C++ engine parses that
spelling, so the engine stays the single authority on types. Calling a type
with types builds a signature; calling it with a value casts on the host
(``float32(1.5)`` gives ``numpy.float32(1.5)``), as numba does.
"""
import numpy as _np

__all__ = []


class Type:
    """A type, named by its numba spelling (numba's Type(name): str(t) is the name)."""
    __slots__ = ("_cuhost_type",)

    def __init__(self, name):
        self._cuhost_type = name

    @property
    def name(self):
        return self._cuhost_type

    def __repr__(self):
        return self._cuhost_type

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Type) and other._cuhost_type == self._cuhost_type

    def __hash__(self):
        return hash(self._cuhost_type)

    def __call__(self, *args):
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        if len(args) == 1 and isinstance(self, Scalar):
            return _np.dtype(self._numpy).type(args[0])
        raise TypeError("invalid signature: %r(%s)" % (self, ", ".join(map(repr, args))))


class Scalar(Type):
    __slots__ = ("_numpy",)

    def __init__(self, spelling, numpy_name):
        super().__init__(spelling)
        self._numpy = numpy_name

    def __getitem__(self, index):
        """float32[:], float32[:, ::1], float32[::1, :] -> array types."""
        return _array_type_of(self, index)

    @property
    def bitwidth(self):
        return _np.dtype(self._numpy).itemsize * 8


class Complex(Scalar):
    """complex64/complex128: numba's Complex, with the float type of its parts."""
    __slots__ = ()

    @property
    def underlying_float(self):
        return globals()["float32" if self._numpy == "complex64" else "float64"]


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
    """dtype[:], dtype[:, ::1], dtype[::1, :] -> array types."""
    if not isinstance(index, tuple):
        index = (index,)
    if not all(isinstance(s, slice) for s in index):
        raise TypeError("array types are written with slices, e.g. float32[:, ::1]")
    ndim = len(index)
    layout = "A"
    if index[-1].step == 1 and all(s.step is None for s in index[:-1]):
        layout = "C"
    elif index[0].step == 1 and all(s.step is None for s in index[1:]) and ndim > 1:
        layout = "F"
    elif ndim == 1 and index[0].step == 1:
        layout = "C"
    return Array(dtype, ndim, layout)


class Record(Type):
    """A NumPy structured dtype as a kernel type (numba's Record).

    The engine derives the layout from the dtype (fields, offsets, nested
    arrays, alignment) and names it in numba's spelling; this object carries
    that spelling and the dtype. Build one with numpy_support.from_dtype.
    """
    __slots__ = ("dtype",)

    def __init__(self, spelling, dtype):
        super().__init__(spelling)
        self.dtype = dtype

    @classmethod
    def _from_dtype(cls, dtype):
        import _cuhost
        spelling = _cuhost._dtype_type(dtype)
        if spelling is None or not spelling.startswith("Record("):
            raise NotImplementedError("the structured dtype %r has a field with no kernel type in cuhost "
                                      "(fields may be numbers, booleans, nested records and arrays of them)"
                                      % (dtype,))
        return cls(spelling, dtype)

    @property
    def fields(self):
        """{name: (type, offset)} in dtype order, as numba's Record.fields."""
        from .np.numpy_support import from_dtype
        out = {}
        for name in self.dtype.names:
            sub, offset = self.dtype.fields[name][:2]
            out[name] = (from_dtype(sub), offset)
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

    def __getitem__(self, index):
        return _array_type_of(self, index)


class NestedArray(Type):
    """An array field of a record (numba's NestedArray): element type and fixed shape."""
    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        self.dtype, self.shape = dtype, tuple(shape)
        dims = ", ".join(str(n) for n in self.shape) + ("," if len(self.shape) == 1 else "")
        super().__init__("nestedarray(%s, (%s))" % (dtype, dims))

    @property
    def ndim(self):
        return len(self.shape)


class Array(Type):
    __slots__ = ("dtype", "ndim", "layout")

    def __init__(self, dtype, ndim, layout, readonly=False):
        ro = "readonly " if readonly else ""
        super().__init__("%sarray(%s, %dd, %s)" % (ro, dtype, ndim, layout))
        self.dtype, self.ndim, self.layout = dtype, ndim, layout


class Signature:
    __slots__ = ("return_type", "args")

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)

    @property
    def _cuhost_type(self):
        return "%s(%s)" % (self.return_type, ", ".join(str(a) for a in self.args))

    def __repr__(self):
        return self._cuhost_type

    def __eq__(self, other):
        return isinstance(other, Signature) and other._cuhost_type == self._cuhost_type

    def __hash__(self):
        return hash(self._cuhost_type)


def CPointer(dtype):
    return Type("CPointer(%s)" % dtype)


def Optional(t):
    return Type("OptionalType(%s)" % t)


class BaseTuple(Type):
    """A tuple type: iterable over its element types, as numba's."""
    __slots__ = ("types",)

    def __iter__(self):
        return iter(self.types)

    def __len__(self):
        return len(self.types)

    def __getitem__(self, i):
        return self.types[i]


class UniTuple(BaseTuple):
    """UniTuple(dtype, count): a tuple of `count` elements of one type."""
    __slots__ = ("dtype", "count")

    def __init__(self, dtype, count):
        super().__init__("UniTuple(%s x %d)" % (dtype, count))
        self.dtype, self.count = dtype, count
        self.types = (dtype,) * count


class Tuple(BaseTuple):
    """Tuple(types): a tuple of mixed element types (a UniTuple when they agree, as numba)."""
    __slots__ = ()

    def __new__(cls, types):
        types = tuple(types)
        if types and all(t == types[0] for t in types):
            return UniTuple(types[0], len(types))
        return super().__new__(cls)

    def __init__(self, types):
        types = tuple(types)
        super().__init__("Tuple(%s)" % ", ".join(str(t) for t in types))
        self.types = types


_scalars = {
    "boolean": "bool_", "bool_": "bool_",
    "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float32": "float32", "float64": "float64",
    "complex64": "complex64", "complex128": "complex128",
}
for _name, _np_name in _scalars.items():
    _cls = Complex if _np_name.startswith("complex") else Scalar
    globals()[_name] = _cls("bool" if _np_name == "bool_" else _name, _np_name)
    __all__.append(_name)

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
void = Type("none")
none = void
__all__ += ["b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8", "c8", "c16",
            "intp", "uintp", "byte", "float_", "double", "intc", "uintc", "void", "none", "Complex",
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

# numba type names cuhost's engine has no type for yet (not exported by `*`).
from ._missing import missing as _missing  # noqa: E402

_missing(globals(), """
    float16 f2 bfloat16 NoneType Number Integer Float Boolean Literal IntegerLiteral StringLiteral
    BooleanLiteral IntEnumMember EnumMember List Set ListType DictType NamedTuple
    NamedUniTuple Omitted Dummy Opaque Dispatcher ExternalFunction Function FunctionType Buffer Bytes
    range_iter32_type range_iter64_type range_state32_type range_state64_type slice2_type slice3_type
    voidptr pyobject unicode_type string undefined ffi_forced_object
""")

# Half precision (engine/sema/typing/half.cpp): IEEE float16 and bfloat16.
float16 = Scalar("float16", "float16")
f2 = half = float16


class _BFloat16(Scalar):
    """bfloat16: NumPy has no such dtype; host-side casts use ml_dtypes' when installed."""
    __slots__ = ()

    def __call__(self, *args):
        if args and not all(isinstance(a, Type) for a in args) and len(args) == 1:
            try:
                import ml_dtypes
            except ImportError:
                raise NotImplementedError("bfloat16(x) on the host needs the ml_dtypes package "
                                          "(inside kernels it needs nothing)") from None
            return ml_dtypes.bfloat16(args[0])
        return super().__call__(*args)

    @property
    def bitwidth(self):
        return 16


bfloat16 = _BFloat16("bfloat16", "bfloat16")
__all__ += ["float16", "f2", "bfloat16"]
