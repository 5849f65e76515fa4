"""numba.cuda.vector_types: CUDA's vector types (float32x4, int2, ...).

cuhost kernels have no vector types yet: each name (numba-cuda's
`<type>x<n>` names and their C aliases such as `float4`) raises
NotImplementedError when used. The names are exported by `cuda` too.
"""
from ._missing import missing as _missing

_BASES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
# C names of the element types, as numba-cuda aliases them (LP64: long is 64-bit).
_C_ALIASES = {"char": "int8", "short": "int16", "int": "int32", "long": "int64", "longlong": "int64",
              "uchar": "uint8", "ushort": "uint16", "uint": "uint32", "ulong": "uint64", "ulonglong": "uint64",
              "float": "float32", "double": "float64"}

__all__ = ["%sx%d" % (b, n) for b in _BASES for n in (1, 2, 3, 4)]
_missing(globals(), " ".join(__all__), " (cuhost kernels have no vector types yet)")
for _alias, _base in _C_ALIASES.items():
    for _n in (1, 2, 3, 4):
        globals()["%s%d" % (_alias, _n)] = globals()["%sx%d" % (_base, _n)]
        __all__.append("%s%d" % (_alias, _n))

_missing(globals(), "vector_types VectorType make_vector_type", " (cuhost kernels have no vector types yet)")
