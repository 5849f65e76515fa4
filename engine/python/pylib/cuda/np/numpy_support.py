"""numba.cuda.np.numpy_support: NumPy dtypes <-> numba types.

Conversions for the types cuhost's kernels have: scalars, datetime64 and
timedelta64 of a unit, structured dtypes (records, laid out by the engine)
and subarray dtypes (nested arrays); others raise NotImplementedError naming
the dtype.
"""
import numpy as _np

from .. import types as _types
from .._device_only import _DeviceFunction
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


class _PointerArray(_DeviceFunction):
    """carray(ptr, shape, dtype=None) / farray(...): a C- or F-ordered array
    over the memory a pointer points to. In kernels the compiler reads the
    key (codegen/lowering/array_methods.cpp); on the host, as numba's, a
    NumPy view over a ctypes pointer (typed, or c_void_p / an address with
    dtype=)."""

    def __init__(self, name, order):
        super().__init__(__name__, name, "numpy_support." + name)
        self._order = order

    def __call__(self, ptr, shape, dtype=None):
        import ctypes

        shape = (int(shape),) if isinstance(shape, (int, _np.integer)) else tuple(int(s) for s in shape)
        if dtype is not None:
            dtype = as_dtype(dtype) if isinstance(dtype, _types.Type) else _np.dtype(dtype)
        pointee = getattr(type(ptr), "_type_", None)
        if isinstance(ptr, ctypes._Pointer) and pointee is not None:
            pointee_dtype = _np.dtype(pointee)
            if dtype is not None and dtype != pointee_dtype:
                raise TypeError("mismatching dtype '%s' for pointer %s" % (dtype, ptr))
            dtype = pointee_dtype
            address = ctypes.cast(ptr, ctypes.c_void_p).value
        elif isinstance(ptr, (ctypes.c_void_p, int)):
            address = ptr.value if isinstance(ptr, ctypes.c_void_p) else ptr
        else:
            raise TypeError("expected a ctypes pointer or an address, got %r" % (ptr,))
        if dtype is None:
            raise TypeError("explicit dtype required for void* argument")
        nbytes = int(_np.prod(shape, dtype=_np.int64)) * dtype.itemsize
        buffer = (ctypes.c_char * nbytes).from_address(address) if nbytes else b""
        return _np.ndarray(shape, dtype=dtype, buffer=buffer, order=self._order)


carray = _PointerArray("carray", "C")
farray = _PointerArray("farray", "F")

_missing(globals(), "is_contiguous is_nonelike map_layout select_array_wrapper resolve_output_type "
                   "supported_ufunc_loop ufunc_find_matching_loop ufunc_can_cast type_can_asarray "
                   "from_struct_dtype as_struct_dtype")
