"""numba.cuda.np.numpy_support: NumPy dtypes <-> numba types.

Conversions for the types cuhost's kernels have: scalars, datetime64 and
timedelta64 of a unit, structured dtypes (records, laid out by the engine)
and subarray dtypes (nested arrays); others raise NotImplementedError naming
the dtype.
"""
import numpy as _np

from .. import types as _types
from .._device_only import device_function as _device_function
from .._missing import missing as _missing

numpy_version = tuple(int(x) for x in _np.__version__.split(".")[:2])

FROM_DTYPE = {_np.dtype(t._numpy): t for t in (
    _types.boolean, _types.int8, _types.int16, _types.int32, _types.int64, _types.uint8, _types.uint16,
    _types.uint32, _types.uint64, _types.float16, _types.float32, _types.float64, _types.complex64, _types.complex128)}


# Record types made so far, by spelling (spellings the engine hands back find their dtype here).
_RECORDS = {}


def _record_by_spelling(spelling):
    return _RECORDS.get(spelling)


def from_dtype(dtype):
    """The numba scalar type of a NumPy dtype (or anything np.dtype accepts)."""
    dt = _np.dtype(dtype)
    if dt.names is not None:
        rec = _types.Record._from_dtype(dt)
        return _RECORDS.setdefault(rec.name, rec)
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return _types.NestedArray(from_dtype(base), shape)
    if dt.kind in "Mm":
        unit, count = _np.datetime_data(dt)
        if count != 1:
            raise NotImplementedError("numba.cuda.np.numpy_support.from_dtype(%r): units with a count are not "
                                      "supported" % (dt,))
        unit = "" if unit == "generic" else unit
        return _types.NPDatetime(unit) if dt.kind == "M" else _types.NPTimedelta(unit)
    try:
        return FROM_DTYPE[dt.newbyteorder("=") if dt.byteorder not in ("=", "|") else dt]
    except KeyError:
        raise NotImplementedError("numba.cuda.np.numpy_support.from_dtype(%r) is not implemented in cuhost yet "
                                  "(kernels have no %s type)" % (dt, dt.kind)) from None


def as_dtype(nbtype):
    """The NumPy dtype of a numba scalar type."""
    if isinstance(nbtype, _types.Scalar):
        return _np.dtype(nbtype._numpy)
    if isinstance(nbtype, _types.Record):
        return nbtype.dtype
    if isinstance(nbtype, _types.NestedArray):
        return _np.dtype((as_dtype(nbtype.dtype), nbtype.shape))
    raise NotImplementedError("%r cannot be represented as a NumPy dtype" % (nbtype,))


def is_array(val):
    return isinstance(val, _np.ndarray)


# carray(ptr, shape, dtype=None) / farray(...): a C- or F-ordered array over
# the memory a typed pointer points to (in kernels; the compiler reads the
# key, codegen/lowering/array_methods.cpp).
carray = _device_function(__name__, "carray", "numpy_support.carray")
farray = _device_function(__name__, "farray", "numpy_support.farray")

_missing(globals(), "is_contiguous is_nonelike map_layout select_array_wrapper resolve_output_type "
                   "supported_ufunc_loop ufunc_find_matching_loop ufunc_can_cast type_can_asarray "
                   "from_struct_dtype as_struct_dtype")
