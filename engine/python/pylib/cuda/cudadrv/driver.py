"""numba.cuda.cudadrv.driver: the driver objects under numba-cuda's names.

Streams, events, devices and the driver's error classes are cuhost's own
(the context, memory and modules are owned by cuhost's C++ host, which
has no Python-level driver object). Raw device memory (MemoryPointer and
the explicit copies) is modelled over cuhost's byte-typed device arrays, so
every allocation is still owned by the host. numba-cuda's memory-manager
plugin interface, IPC, managed memory and its linker are not implemented
yet: those names raise NotImplementedError when used.
"""
import ctypes
import weakref

import numpy as np

import _cuhost
from _cuhost import Event, Stream, event_elapsed_time  # noqa: F401

from ..api import Device  # noqa: F401
from .._missing import missing as _missing
from .error import CudaDriverError, CudaSupportError  # noqa: F401

CudaAPIError = _cuhost.CudaAPIError
LinkerError = _cuhost.LinkerError

# numba-cuda's default-stream flag and the lowest compute capability it supports.
CU_STREAM_DEFAULT = 0
MIN_REQUIRED_CC = (3, 5)


class DeadMemoryError(RuntimeError):
    pass


def _have_nvjitlink():
    """cuhost always links device code with nvJitLink (it is linked into the host)."""
    return True


# ---- raw memory ------------------------------------------------------------

class MemoryInfo(tuple):
    """(free, total) bytes of device memory, with numba's field names."""

    def __new__(cls, free, total):
        return super().__new__(cls, (free, total))

    free = property(lambda self: self[0])
    total = property(lambda self: self[1])


class MemoryPointer:
    """A range of device memory: `handle` (the address, an int), `size` in
    bytes, `owner` (the allocation it lies in) and `refct` (the allocation's
    count of live pointers: itself and its views). `finalizer` runs once the
    allocation's last pointer is gone. `_bytes` is the cuhost device array of
    uint8 that holds the memory when cuhost allocated it (None for memory
    wrapped from elsewhere, which cuhost cannot copy to or from)."""

    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None, _bytes=None):
        self.context = context
        self.handle = pointer.value if isinstance(pointer, ctypes.c_void_p) else int(pointer or 0)
        self.size = int(size)
        self._bytes = _bytes
        self._finalizer = weakref.finalize(self, finalizer) if finalizer is not None else None
        self._owner = owner  # None for the allocation itself (no self-cycle: deletion frees at once)
        if owner is None:
            self.refct = 1
        else:
            owner.refct += 1
            # A view gives its count back when it goes.
            weakref.finalize(self, MemoryPointer._release, owner)

    @property
    def owner(self):
        return self if self._owner is None else self._owner

    @staticmethod
    def _release(owner):
        owner.refct -= 1

    @property
    def device_pointer_value(self):
        return self.handle or None

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_size_t(self.handle)

    @property
    def nbytes(self):
        return self.size

    def view(self, start, stop=None):
        """The bytes [start, stop) of this range as a new pointer (a view)."""
        stop = self.size if stop is None else stop
        if not 0 <= start <= stop <= self.size:
            raise IndexError("view [%d, %d) is outside the %d-byte range" % (start, stop, self.size))
        part = None if self._bytes is None else self._bytes[start:stop]
        return MemoryPointer(self.context, self.handle + start, stop - start, owner=self.owner, _bytes=part)

    def own(self):
        return OwnedPointer(self)

    def free(self):
        """Runs the finalizer now (at most once)."""
        if self._finalizer is not None:
            self._finalizer()

    def memset(self, byte, count=None, stream=0):
        device_memset(self, byte, self.size if count is None else count, stream=stream)

    def __repr__(self):
        return "<MemoryPointer 0x%x, %d bytes>" % (self.handle, self.size)


AutoFreePointer = MemoryPointer


class OwnedPointer:
    """A counted reference to a pointer: the pointer lives while this does."""

    def __init__(self, memptr, view=None):
        self._mem = memptr
        self._view = memptr if view is None else view
        memptr.owner.refct += 1
        weakref.finalize(self, MemoryPointer._release, memptr.owner)

    def __getattr__(self, name):
        return getattr(self._view, name)


class PinnedMemory:
    """Page-locked host memory (numba's PinnedMemory): `handle` is the host
    address; it has no device address."""

    def __init__(self, context, pointer, size, owner=None, finalizer=None, _buffer=None):
        self.context = context
        self.handle = pointer.value if isinstance(pointer, ctypes.c_void_p) else int(pointer)
        self.host_pointer = self.handle
        self.size = int(size)
        self.owner = owner
        self._buffer = _buffer
        if finalizer is not None:
            weakref.finalize(self, finalizer)

    def own(self):
        return self


class MappedMemory(MemoryPointer):
    """Page-locked host memory the device can address directly (unified
    addressing: the same address on both sides)."""

    def __init__(self, context, pointer, size, owner=None, finalizer=None, _buffer=None):
        super().__init__(context, pointer, size, finalizer=finalizer)
        self.host_pointer = self.handle
        self._buffer = _buffer


def is_device_memory(obj):
    """True for objects that describe device memory (numba's __cuda_memory__ marker)."""
    return getattr(obj, "__cuda_memory__", False) or isinstance(obj, _cuhost.DeviceNDArray)


def require_device_memory(obj):
    """Raise TypeError unless `obj` is device memory."""
    if not is_device_memory(obj):
        raise TypeError("Not a CUDA memory object.")


def device_pointer(obj):
    """The device address of `obj` (a memory pointer or a device array) as an int."""
    return device_ctypes_pointer(obj).value


def device_ctypes_pointer(obj):
    """The device address of `obj` as a ctypes.c_size_t (c_size_t(0) for None)."""
    if obj is None:
        return ctypes.c_size_t(0)
    require_device_memory(obj)
    if isinstance(obj, _cuhost.DeviceNDArray):
        return ctypes.c_size_t(obj.device_pointer)
    return obj.device_ctypes_pointer


def host_pointer(obj, readonly=False):
    """The host address of a buffer-protocol object or ctypes object (an int
    is returned as it is). Read-only buffers are refused unless `readonly`."""
    if isinstance(obj, int):
        return obj
    if isinstance(obj, (ctypes._SimpleCData, ctypes.Structure, ctypes.Union, ctypes.Array)):
        return ctypes.addressof(obj)
    view = memoryview(obj)
    if view.readonly and not readonly:
        raise BufferError("the buffer of %s is read-only" % type(obj).__name__)
    return host_memory_extents(obj)[0]


def memory_size_from_info(shape, strides, itemsize):
    """Bytes spanned by an array of this shape, strides and itemsize."""
    if len(shape) != len(strides):
        raise ValueError("shape %r and strides %r differ in length" % (tuple(shape), tuple(strides)))
    if any(n == 0 for n in shape):
        return 0
    low = high = 0
    for n, s in zip(shape, strides):
        span = (n - 1) * s
        if span < 0:
            low += span
        else:
            high += span
    return high - low + itemsize


def host_memory_extents(obj):
    """(start, end) host addresses of the bytes `obj` spans (end exclusive)."""
    if isinstance(obj, (ctypes._SimpleCData, ctypes.Structure, ctypes.Union, ctypes.Array)):
        start = ctypes.addressof(obj)
        return start, start + ctypes.sizeof(obj)
    if isinstance(obj, np.ndarray) and obj.dtype.kind in "mM":
        obj = obj.view(np.int64)  # datetimes have no buffer format
    if isinstance(obj, np.ndarray):
        base = obj.ctypes.data
        low = high = 0
        if obj.size == 0:
            return base, base
        for n, s in zip(obj.shape, obj.strides):
            span = (n - 1) * s
            if span < 0:
                low += span
            else:
                high += span
        return base + low, base + high + obj.itemsize
    view = memoryview(obj)
    array = np.frombuffer(view.cast("B"), dtype=np.uint8) if view.contiguous else np.asarray(view)
    return host_memory_extents(array)


def host_memory_size(obj):
    """Bytes spanned by the host object `obj`."""
    start, end = host_memory_extents(obj)
    return end - start


def device_extents(devmem):
    """(start, end) device addresses of a memory pointer or device array."""
    if isinstance(devmem, _cuhost.DeviceNDArray):
        start = devmem.device_pointer
        return start, start + device_memory_size(devmem)
    start = devmem.handle
    return start, start + devmem.size


def device_memory_size(devmem):
    """Bytes of device memory `devmem` spans."""
    if isinstance(devmem, _cuhost.DeviceNDArray):
        return memory_size_from_info(devmem.shape, devmem.strides, devmem.dtype.itemsize)
    return devmem.size


def _device_bytes(obj, size, what):
    """The first `size` bytes of device memory `obj` as a cuhost uint8 device array."""
    if isinstance(obj, _cuhost.DeviceNDArray):
        if not (obj.is_c_contiguous() or obj.is_f_contiguous()):
            raise ValueError("%s: the device array is not contiguous" % what)
        flat = obj.reshape(obj.size, order="C" if obj.is_c_contiguous() else "F")
        data = flat.view(np.uint8)
    else:
        require_device_memory(obj)
        data = getattr(obj, "_bytes", None)
        if data is None:
            raise NotImplementedError("%s: cuhost can only copy memory it allocated (memalloc or device arrays), "
                                      "not a pointer wrapped from elsewhere" % what)
    if size > data.size:
        raise ValueError("%s: %d bytes requested from a %d-byte range" % (what, size, data.size))
    return data[:size]


def _host_bytes(obj, size, readonly):
    if size == 0:
        return np.empty(0, np.uint8)
    return np.ctypeslib.as_array((ctypes.c_uint8 * size).from_address(host_pointer(obj, readonly=readonly)))


def host_to_device(dst, src, size, stream=0):
    """Copy `size` bytes from host object `src` to device memory `dst`."""
    if size:
        _device_bytes(dst, size, "host_to_device").copy_to_device(_host_bytes(src, size, True), stream=stream)


def device_to_host(dst, src, size, stream=0):
    """Copy `size` bytes from device memory `src` to host object `dst`."""
    if size:
        _device_bytes(src, size, "device_to_host").copy_to_host(_host_bytes(dst, size, False), stream=stream)


def device_to_device(dst, src, size, stream=0):
    """Copy `size` bytes between two ranges of device memory."""
    if size:
        _device_bytes(dst, size, "device_to_device").copy_to_device(_device_bytes(src, size, "device_to_device"),
                                                                    stream=stream)


def device_memset(dst, val, size, stream=0):
    """Set `size` bytes of device memory `dst` to the byte `val`."""
    if size:
        _device_bytes(dst, size, "device_memset").copy_to_device(np.full(size, val & 0xFF, np.uint8),
                                                                 stream=stream)


def _memalloc(context, size):
    """`size` bytes of device memory owned by a cuhost uint8 device array."""
    data = _cuhost._device_array((int(size),), np.dtype(np.uint8), None, "C", 0)
    return MemoryPointer(context, data.device_pointer, size, _bytes=data)


def _memhostalloc(context, size, mapped=False, portable=False, wc=False):
    """Page-locked host memory of `size` bytes (MappedMemory when `mapped`)."""
    buf = np.frombuffer(_cuhost._pinned_buffer(int(size)), dtype=np.uint8) if size else np.empty(0, np.uint8)
    address = buf.ctypes.data
    if not mapped:
        return PinnedMemory(context, address, size, _buffer=buf)
    mem = MappedMemory(context, address, size, _buffer=buf)
    mem._bytes = _cuhost.as_cuda_array(buf.view(_MappedBytes))
    return mem


class _MappedBytes(np.ndarray):
    """Host bytes shown to cuhost as device memory (they are page-locked and mapped)."""

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "strides": None, "data": (self.ctypes.data, False), "typestr": "|u1",
                "version": 3, "stream": None}


_missing(globals(), """
    driver Driver Context Function Linker _Linker LinkerOptions CudaPythonModule CudaPythonFunction FuncAttr
    load_module_image BaseCUDAMemoryManager HostOnlyCUDAMemoryManager GetIpcHandleMixin NumbaCUDAMemoryManager
    set_memory_manager ManagedMemory MappedOwnedPointer ManagedOwnedPointer IpcHandle
    device_memory_depends get_devptr_for_active_ctx
    profile_start profile_stop profiling get_version inspect_obj_content find_driver load_driver
    locate_driver_and_loader _to_core_stream _stream_handle
""")
