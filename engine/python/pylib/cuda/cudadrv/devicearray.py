"""numba.cuda.cudadrv.devicearray: device arrays under numba-cuda's names.

cuhost has one device array class, _cuhost.DeviceNDArray (numba's
DeviceNDArray and DeviceNDArrayBase), and a mapped host array
(cuda.api.MappedNDArray), and DeviceRecord: one record of a structured dtype
in device memory (an element of a device record array, or a record copied
with to_device). Managed and IPC arrays are not implemented yet.
"""
import ctypes as _ctypes

import numpy as _np

import _cuhost
from _cuhost import DeviceNDArray
from ..api import MappedNDArray, to_device
from .._missing import missing as _missing

DeviceNDArrayBase = DeviceNDArray

errmsg_contiguous_buffer = "Array contains non-contiguous buffer and cannot be transferred as a single memory region. Please ensure contiguous buffer with numpy .ascontiguousarray()"  # noqa: E501


def is_cuda_ndarray(obj):
    """True for cuhost's device arrays."""
    return isinstance(obj, DeviceNDArray)


def verify_cuda_ndarray_interface(obj):
    """Raise AttributeError unless `obj` has the attributes of a device array."""
    for name in ("shape", "strides", "dtype", "size"):
        if not hasattr(obj, name):
            raise AttributeError("%r has no attribute %r" % (obj, name))


def require_cuda_ndarray(obj):
    """Raise ValueError unless `obj` is a device array."""
    if not is_cuda_ndarray(obj):
        raise ValueError("require an cuda ndarray object")


def _host_record_address(rec):
    """The address of a NumPy record scalar's storage (for a scalar taken
    from an array, the array's element). NumPy exports it read-only; copies
    back write through it, as numba-cuda does."""
    return _np.frombuffer(rec, _np.uint8).ctypes.data


class DeviceRecord:
    """One record of a structured dtype in device memory.

    Indexing by field name reads a scalar field back to the host, returns a
    DeviceRecord for a nested record field and a device array view for an
    array field; assigning to a field writes device memory. Passed to a
    kernel, it is the record by reference.
    """
    __slots__ = ("_view", "__weakref__")

    def __init__(self, dtype, stream=0, gpu_data=None):
        dtype = _np.dtype(dtype)
        if dtype.names is None:
            raise TypeError("DeviceRecord needs a structured dtype, not %s" % (dtype,))
        self._view = gpu_data if gpu_data is not None else _cuhost._device_array((), dtype, None, "C", stream)

    @classmethod
    def _wrap(cls, view):
        rec = cls.__new__(cls)
        rec._view = view
        return rec

    dtype = property(lambda self: self._view.dtype)
    shape = property(lambda self: ())
    strides = property(lambda self: ())
    ndim = property(lambda self: 0)
    size = property(lambda self: 1)
    alloc_size = property(lambda self: self._view.dtype.itemsize)
    gpu_data = property(lambda self: self._view)
    stream = property(lambda self: self._view.stream)

    @property
    def device_ctypes_pointer(self):
        return _ctypes.c_void_p(self._view.__cuda_array_interface__["data"][0])

    @property
    def _numba_type_(self):
        from ..np.numpy_support import from_dtype
        return from_dtype(self.dtype)

    def copy_to_device(self, ary, stream=0):
        """Copies a host record (or a DeviceRecord of the same dtype) in."""
        if isinstance(ary, DeviceRecord):
            ary = ary.copy_to_host(stream=stream)
        host = _np.asarray(ary, dtype=self.dtype).reshape(())
        self._view.copy_to_device(host, stream=stream)

    def copy_to_host(self, ary=None, stream=0):
        """The record's bytes on the host: into `ary` (a record scalar or a
        0-d array of the dtype) when given, else a new record scalar."""
        host = self._view.copy_to_host(stream=stream)
        if ary is None:
            return host[()]
        if isinstance(ary, _np.ndarray):
            ary[...] = host
            return ary
        if isinstance(ary, _np.void) and ary.dtype == self.dtype:
            _ctypes.memmove(_host_record_address(ary), host.ctypes.data, self.dtype.itemsize)
            return ary
        raise TypeError("copy_to_host: cannot copy a record of %s into %r" % (self.dtype, type(ary).__name__))

    def _field(self, key):
        if key not in self.dtype.fields:
            raise KeyError(key)
        sub, offset = self.dtype.fields[key][:2]
        if sub.subdtype is not None:
            base, shape = sub.subdtype
            return _cuhost._device_subview(self._view, offset, base, shape), True
        return _cuhost._device_subview(self._view, offset, sub, ()), False

    def __getitem__(self, key):
        view, is_array = self._field(key)
        if is_array:
            return view
        if view.dtype.names is not None:
            return DeviceRecord._wrap(view)
        return view.copy_to_host()[()]

    def __setitem__(self, key, value):
        view, is_array = self._field(key)
        host = _np.empty(view.shape, view.dtype)
        host[...] = value
        view.copy_to_device(host)

    def __repr__(self):
        return "<DeviceRecord of %s>" % (self.dtype,)


def _record_from_view(view):
    """The DeviceRecord of a 0-d view (device record array indexing)."""
    return DeviceRecord._wrap(view)


def from_record_like(rec, stream=0, gpu_data=None):
    """A new (uninitialised) DeviceRecord of the dtype of `rec`."""
    return DeviceRecord(rec.dtype, stream=stream, gpu_data=gpu_data)


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """(device array, converted): `obj` itself when it is already on the
    device, else a new device array (a DeviceRecord for a record) holding a
    copy of it."""
    if is_cuda_ndarray(obj) or isinstance(obj, DeviceRecord):
        return obj, False
    if isinstance(obj, _np.void) and obj.dtype.names is not None:
        dev = DeviceRecord(obj.dtype, stream=stream)
        if copy:
            dev.copy_to_device(obj, stream=stream)
        return dev, True
    return to_device(obj, stream=stream, copy=copy), True


def array_core(ary):
    """`ary` without its broadcast axes (those of stride 0, indexed at 0):
    the part of it that owns distinct memory."""
    if not ary.strides or not ary.size:
        return ary
    return ary[tuple(0 if stride == 0 else slice(None) for stride in ary.strides)]


def is_contiguous(ary):
    """True when `ary` is C-contiguous once its broadcast (stride 0) and
    length-1 axes are ignored."""
    expected = ary.dtype.itemsize
    for n, stride in zip(reversed(ary.shape), reversed(ary.strides)):
        if n > 1 and stride != 0:
            if stride != expected:
                return False
            expected *= n
    return True


def sentry_contiguous(ary):
    """ValueError (numba's message) unless the core of `ary` is C- or F-contiguous."""
    flags = array_core(ary).flags
    if not flags["C_CONTIGUOUS"] and not flags["F_CONTIGUOUS"]:
        raise ValueError(errmsg_contiguous_buffer)


def check_array_compatibility(ary1, ary2):
    """TypeError unless the dtypes match, ValueError unless the shapes and
    (for non-empty arrays) the strides match once length-1 axes are squeezed
    out: numba-cuda's check before a copy."""
    ary1sq, ary2sq = ary1.squeeze(), ary2.squeeze()
    if ary1.dtype != ary2.dtype:
        raise TypeError("incompatible dtype: %s vs. %s" % (ary1.dtype, ary2.dtype))
    if ary1sq.shape != ary2sq.shape:
        raise ValueError("incompatible shape: %s vs. %s" % (ary1.shape, ary2.shape))
    if ary1sq.strides != ary2sq.strides and ary1.size:
        raise ValueError("incompatible strides: %s vs. %s" % (ary1.strides, ary2.strides))


_missing(globals(), """
    ManagedNDArray IpcArrayHandle from_array_like
""")
