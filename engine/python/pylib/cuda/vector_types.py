"""numba.cuda.vector_types: CUDA's vector types (float32x4, int2, ...).

Every `<base>x<n>` (n = 1..4) of the integer and float types, and its C
aliases (`float4`, `short2`, `long3`, ...: the same object). In kernels a
vector type is a constructor taking scalars and smaller vectors of the same
base whose element counts add up (`float32x4(f2, 1.0, 2.0)`), and a vector's
components read as `.x .y .z .w`; the engine types them (its spelling is the
vector's name). `vector_types` maps each name to its VectorType description.
"""
from . import types as _types

_BASES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
# C names of the element types, as numba-cuda aliases them (LP64: long is 64-bit).
_C_ALIASES = {"char": "int8", "short": "int16", "int": "int32", "long": "int64", "longlong": "int64",
              "uchar": "uint8", "ushort": "uint16", "uint": "uint32", "ulong": "uint64", "ulonglong": "uint64",
              "float": "float32", "double": "float64"}
_ATTRS = ("x", "y", "z", "w")


class _VectorTypeStub(_types.Type):
    """The object kernels call to build a vector (cuda.float32x4)."""
    __slots__ = ("aliases", "_cuhost_vector_type")

    def __init__(self, name):
        super().__init__(name)
        self.aliases = []
        self._cuhost_vector_type = True

    @property
    def __name__(self):
        return self._cuhost_type

    def __call__(self, *args):
        raise TypeError("%s() builds a vector inside kernels only" % self._cuhost_type)


class VectorType:
    """The description of one vector type (numba-cuda's VectorType)."""

    def __init__(self, name, base_type, attr_names, user_facing_object):
        self.name = name
        self.base_type = base_type
        self.attr_names = attr_names
        self.user_facing_object = user_facing_object

    @property
    def num_elements(self):
        return len(self.attr_names)

    def __repr__(self):
        return self.name

    __str__ = __repr__


def make_vector_type(name, base_type, attr_names, user_facing_object):
    return VectorType(name, base_type, tuple(attr_names), user_facing_object)


vector_types = {}
__all__ = []
for _base in _BASES:
    for _n in (1, 2, 3, 4):
        _name = "%sx%d" % (_base, _n)
        _stub = _VectorTypeStub(_name)
        globals()[_name] = _stub
        vector_types[_name] = make_vector_type(_name, getattr(_types, _base), _ATTRS[:_n], _stub)
        __all__.append(_name)
for _alias, _base in _C_ALIASES.items():
    for _n in (1, 2, 3, 4):
        _stub = globals()["%sx%d" % (_base, _n)]
        _stub.aliases.append("%s%d" % (_alias, _n))
        globals()["%s%d" % (_alias, _n)] = _stub
        __all__.append("%s%d" % (_alias, _n))
