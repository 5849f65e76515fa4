"""Memory objects and byte copies of numba-cuda's driver layer.

MemoryPointer and its kinds (AutoFreePointer, MappedMemory, PinnedMemory,
ManagedMemory) describe ranges of memory the way numba-cuda does: `handle`
and `device_pointer` (the address), `size`, `owner` (the allocation a view
lies in) and `refct` (the allocation's count of live pointers). Memory
cuhost allocated is owned by a cuhost uint8 device array kept in `_bytes`:
it is released (to the device's pending-deallocation queue) when the last
pointer into it goes. Memory from elsewhere (an external memory manager, a
wrapped address) is released by its `finalizer`. The host-addressable kinds
(mapped, managed, pinned) support the buffer protocol (`_cuhost.MemAlloc`),
so NumPy can view them in place.

The copy functions work on addresses (`_cuhost._memcpy`/`_memset`), so any
device memory object can be copied to and from, including device arrays.
"""
import ctypes
import weakref
from collections import namedtuple

import numpy as np

import _cuhost

MemoryInfo = namedtuple("MemoryInfo", "free,total")
MemoryInfo.__doc__ = "Free and total memory of a device, in bytes."


class DeadMemoryError(RuntimeError):
    pass


def _address(pointer):
    """An int from an address given as int, ctypes pointer or handle object."""
    if pointer is None:
        return 0
    if isinstance(pointer, (ctypes.c_void_p, ctypes.c_size_t)):
        return pointer.value or 0
    return int(pointer)


class MemoryPointer(_cuhost.MemAlloc):
    """A range of device memory with an optional finalizer, which runs when
    the instance is deleted (or at free()). Views (view()) count as
    references of the allocation (`refct`)."""

    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None, _bytes=None):
        self.context = context
        self.device_pointer = _address(pointer)
        self.handle = self.device_pointer
        self.size = int(size)
        self._cuda_memsize_ = self.size
        self._bytes = _bytes
        self.is_managed = finalizer is not None
        self.refct = 1
        self._owner = owner
        if finalizer is not None:
            self._finalizer = weakref.finalize(self, finalizer)

    @property
    def owner(self):
        return self if self._owner is None else self._owner

    def own(self):
        return OwnedPointer(self)

    def free(self):
        """Runs the finalizer now (memory from elsewhere), or lets go of the
        allocation (cuhost's own memory; it is released once no view holds it)."""
        if self.is_managed:
            if not self._finalizer.alive:
                raise RuntimeError("Freeing dead memory")
            self._finalizer()
        self._bytes = None

    def memset(self, byte, count=None, stream=0):
        device_memset(self, byte, self.size if count is None else count, stream=stream)

    def view(self, start, stop=None):
        """The bytes [start, stop) of this range, as a pointer that holds the allocation."""
        size = self.size - start if stop is None else stop - start
        if not self.device_pointer_value:
            if size != 0:
                raise RuntimeError("non-empty slice into empty slice")
            return self
        if size < 0:
            raise RuntimeError("size cannot be negative")
        if start < 0 or start + size > self.size:
            raise IndexError("view [%d, %d) is outside the %d-byte range" % (start, start + size, self.size))
        part = None if self._bytes is None else self._bytes[start:start + size]
        return _View(self.context, self.device_pointer + start, size, owner=self.owner, _bytes=part)

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_size_t(self.device_pointer)

    @property
    def device_pointer_value(self):
        return self.device_pointer or None

    def _identity(self):
        owner = _root(self)
        return self.device_pointer, self.size, int(getattr(owner, "device_pointer", 0) or 0)

    def __eq__(self, other):
        # Two pointers to the same bytes of the same allocation are equal
        # (device arrays make a new gpu_data object on each access; live
        # allocations never share a base address).
        if not isinstance(other, MemoryPointer):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self):
        return hash(self._identity())

    def __repr__(self):
        return "<%s 0x%x, %d bytes>" % (type(self).__name__, self.device_pointer, self.size)


def _root(mem):
    owner = mem.owner
    return getattr(owner, "_mem", owner)


class _View(MemoryPointer):
    """A view of a range: it holds a count of the allocation while alive."""

    def __init__(self, context, pointer, size, owner, _bytes=None):
        super().__init__(context, pointer, size, owner=owner, _bytes=_bytes)
        self.refct = 0
        owner.refct += 1
        weakref.finalize(self, _release, owner)


def _release(owner):
    owner.refct -= 1
    if owner.refct == 0 and isinstance(owner, AutoFreePointer):
        owner.free()


class AutoFreePointer(MemoryPointer):
    """A pointer whose memory is released when its reference count drops to
    zero (its own reference does not count)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.refct -= 1


class MappedMemory(AutoFreePointer):
    """Page-locked host memory mapped into the device's address space (with
    unified addressing, the same address on both sides)."""

    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None, _buffer=None):
        self.owned = owner
        super().__init__(context, pointer, size, finalizer=finalizer)
        self.host_pointer = self.device_pointer
        self.handle = self.host_pointer
        self._buffer = _buffer
        self._bufptr_ = self.host_pointer
        self._buflen_ = self.size

    def own(self):
        return MappedOwnedPointer(self)


class PinnedMemory(_cuhost.MemAlloc):
    """Page-locked host memory (no device address of its own)."""

    def __init__(self, context, pointer, size, owner=None, finalizer=None, _buffer=None):
        self.context = context
        self.owned = owner
        self.size = int(size)
        self.host_pointer = _address(pointer)
        self.is_managed = finalizer is not None
        self.handle = self.host_pointer
        self._buffer = _buffer
        self._bufptr_ = self.host_pointer
        self._buflen_ = self.size
        if finalizer is not None:
            weakref.finalize(self, finalizer)

    def own(self):
        return self


class ManagedMemory(AutoFreePointer):
    """Managed (unified) memory: addressable from the host and the device."""

    __cuda_memory__ = True

    def __init__(self, context, pointer, size, owner=None, finalizer=None, _bytes=None):
        self.owned = owner
        super().__init__(context, pointer, size, finalizer=finalizer, _bytes=_bytes)
        self._bufptr_ = self.device_pointer
        self._buflen_ = self.size

    def own(self):
        return ManagedOwnedPointer(self)


class OwnedPointer:
    """A counted reference to a pointer (or to a view of it): the memory
    stays while this does."""

    def __init__(self, memptr, view=None):
        self._mem = memptr
        self._view = memptr if view is None else view
        memptr.refct += 1
        weakref.finalize(self, _release, memptr)
        self.device_ctypes_pointer = self._view.device_ctypes_pointer

    def __getattr__(self, name):
        return getattr(self._view, name)


class MappedOwnedPointer(OwnedPointer, _cuhost.MemAlloc):
    pass


class ManagedOwnedPointer(OwnedPointer, _cuhost.MemAlloc):
    pass


# ---- cuhost's own allocations ------------------------------------------------------

def _cuhost_memory(context, size):
    """`size` bytes of cuhost-allocated device memory (a MemoryPointer that owns it)."""
    data = _cuhost._device_array((int(size),), np.dtype(np.uint8), None, "C", 0)
    return MemoryPointer(context, data.device_pointer, size, _bytes=data)


def _cuhost_managed_memory(context, size, attach_global=True):
    """`size` bytes of managed memory (cuMemAllocManaged; host memory on the CPU backend)."""
    data = _cuhost._managed_alloc(int(size), bool(attach_global))
    return ManagedMemory(context, data.device_pointer, size, _bytes=data)


def _cuhost_host_memory(context, size, mapped=False):
    """Page-locked host memory (MappedMemory when `mapped`, else PinnedMemory)."""
    buf = np.frombuffer(_cuhost._pinned_buffer(int(size)), dtype=np.uint8) if size else np.empty(0, np.uint8)
    address = buf.ctypes.data
    if mapped:
        return MappedMemory(context, address, size, _buffer=buf)
    return PinnedMemory(context, address, size, _buffer=buf)


# ---- pointers and extents -------------------------------------------------------------

def is_device_memory(obj):
    """True for objects that describe device memory (numba's __cuda_memory__ marker)."""
    try:
        return bool(obj.__cuda_memory__)
    except AttributeError:
        return isinstance(obj, _cuhost.DeviceNDArray)


def require_device_memory(obj):
    """Raise TypeError unless `obj` is device memory."""
    if not is_device_memory(obj):
        raise TypeError("Not a CUDA memory object.")


def device_pointer(obj):
    """The device address of `obj` (a memory pointer or a device array) as an int."""
    return device_ctypes_pointer(obj).value or 0


def device_ctypes_pointer(obj):
    """The device address of `obj` as a ctypes.c_size_t (c_void_p(0) for None)."""
    if obj is None:
        return ctypes.c_void_p(0)
    require_device_memory(obj)
    if isinstance(obj, _cuhost.DeviceNDArray):
        return ctypes.c_size_t(obj.device_pointer)
    return obj.device_ctypes_pointer


def device_memory_depends(devmem, *objs):
    """Keeps `objs` alive as long as `devmem` (structures pointing to other memory)."""
    depends = getattr(devmem, "_depends_", None)
    if depends is None:
        depends = []
        devmem._depends_ = depends
    depends.extend(objs)


def _is_datetime(obj):
    dtype = getattr(obj, "dtype", None)
    return dtype is not None and dtype.char in "Mm"


def host_pointer(obj, readonly=False):
    """The host address of a buffer-protocol object or ctypes object (an int
    is returned as it is). Read-only buffers are refused unless `readonly`
    (NumPy records and datetimes are written through, as numba does)."""
    if isinstance(obj, int):
        return obj
    if isinstance(obj, (ctypes._SimpleCData, ctypes.Structure, ctypes.Union, ctypes.Array)):
        return ctypes.addressof(obj)
    if isinstance(obj, np.void):
        return np.frombuffer(obj, np.uint8).ctypes.data
    if _is_datetime(obj):
        obj = obj.view(np.int64)
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
    if _is_datetime(obj):
        obj = obj.view(np.int64)
    if isinstance(obj, np.ndarray):
        base = obj.ctypes.data
        if obj.size == 0:
            return base, base
        low = high = 0
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
    """(start, end) device addresses of the allocation `devmem` lies in (the
    whole allocation, not just the part a view covers)."""
    if isinstance(devmem, _cuhost.DeviceNDArray):
        base, size = _cuhost._allocation_of(devmem)[:2]
        return base, base + size
    owner = devmem.owner
    return int(owner.handle), int(owner.handle) + int(owner.size)


def device_memory_size(devmem):
    """Bytes of device memory `devmem` covers."""
    size = getattr(devmem, "_cuda_memsize_", None)
    if size is None:
        if isinstance(devmem, _cuhost.DeviceNDArray):
            return memory_size_from_info(devmem.shape, devmem.strides, devmem.dtype.itemsize)
        start, end = device_extents(devmem)
        size = end - start
    return size


# ---- copies ---------------------------------------------------------------------------

def _stream_arg(stream):
    return None if (isinstance(stream, int) and stream == 0) else stream


def host_to_device(dst, src, size, stream=0):
    """Copy `size` bytes from host object `src` to device memory `dst`
    (asynchronously when a stream is given)."""
    if size:
        _cuhost._memcpy("htod", device_pointer(dst), host_pointer(src, readonly=True), size, _stream_arg(stream))


def device_to_host(dst, src, size, stream=0):
    """Copy `size` bytes from device memory `src` to host object `dst`."""
    if size:
        _cuhost._memcpy("dtoh", host_pointer(dst), device_pointer(src), size, _stream_arg(stream))


def device_to_device(dst, src, size, stream=0):
    """Copy `size` bytes between two ranges of device memory."""
    if size:
        _cuhost._memcpy("dtod", device_pointer(dst), device_pointer(src), size, _stream_arg(stream))


def device_memset(dst, val, size, stream=0):
    """Set `size` bytes of device memory `dst` to the byte `val`."""
    if size:
        _cuhost._memset(device_pointer(dst), val & 0xFF, size, _stream_arg(stream))
