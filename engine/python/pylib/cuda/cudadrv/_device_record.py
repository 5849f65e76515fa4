"""DeviceRecord: one record of a structured dtype in device memory.

Its home is below both of its users: cuda.to_device (api.py) copies a host
record into one, and cudadrv/devicearray.py (numba's module path for it)
re-exports it with the rest of the device array API built on api.py.
"""
import ctypes as _ctypes

import numpy as _np

import _cuhost

from ..np.numpy_support import from_dtype


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
        view, _is_array = self._field(key)
        host = _np.empty(view.shape, view.dtype)
        host[...] = value
        view.copy_to_device(host)

    def __repr__(self):
        return "<DeviceRecord of %s>" % (self.dtype,)


def record_to_device(rec, stream=0, copy=True):
    """A new DeviceRecord of the host record `rec`'s dtype, holding a copy of it when `copy`."""
    dev = DeviceRecord(rec.dtype, stream=stream)
    if copy:
        dev.copy_to_device(rec, stream=stream)
    return dev
