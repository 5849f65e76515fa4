"""Host arrays kernels can use in place: mapped (page-locked host memory in
the device's address space) and managed (unified) memory, and the pinned()
and mapped() blocks that page-lock existing NumPy arrays.

MappedNDArray and ManagedNDArray are NumPy arrays over such memory that are
device arrays too: they export __cuda_array_interface__ (with the stream
they were made with) and `__cuda_memory__`, so kernels, copies and the
driver-level functions take them without copying. On the CPU backend
host memory is device memory, so both are plain aligned host memory there.
"""
import contextlib
import ctypes

import numpy as np

import _cuhost

from .cudadrv._contexts import current_context
from .cudadrv._memory import host_memory_size, host_pointer


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _nbytes(shape, strides, itemsize):
    count = 1
    for s in shape:
        count *= s
    if strides is None or not count:
        return count * itemsize
    return itemsize + sum((s - 1) * abs(st) for s, st in zip(shape, strides))


class _DeviceVisibleArray(np.ndarray):
    """A NumPy array over memory the device can address (the base of the two kinds below)."""

    __cuda_memory__ = True

    def __array_finalize__(self, parent):
        self._gpu_memory = getattr(parent, "_gpu_memory", None)
        self._stream = getattr(parent, "_stream", 0)

    @property
    def stream(self):
        return self._stream

    @property
    def gpu_data(self):
        """The memory object the array lies in."""
        return self._gpu_memory

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_size_t(self.ctypes.data)

    @property
    def _cuda_memsize_(self):
        return self.nbytes

    @property
    def __cuda_array_interface__(self):
        stream = self._stream
        handle = None
        if not (isinstance(stream, int) and stream == 0):
            handle = int(stream.handle) or None
        return {
            "shape": self.shape,
            "strides": None if self.flags["C_CONTIGUOUS"] else self.strides,
            "data": (self.ctypes.data, not self.flags["WRITEABLE"]),
            "typestr": self.dtype.str,
            "version": 3,
            "stream": handle,
        }


class MappedNDArray(_DeviceVisibleArray):
    """A host array in page-locked memory mapped into the device's address space."""


class ManagedNDArray(_DeviceVisibleArray):
    """A host array in managed (unified) memory."""


def _over(memory, cls, shape, dtype, strides, order, stream):
    shape = _shape(shape)
    dtype = np.dtype(dtype)
    strides = None if strides is None else _shape(strides)
    array = np.ndarray(shape, dtype=dtype, buffer=memory, strides=strides, order=order).view(cls)
    array._gpu_memory = memory
    array._stream = stream
    return array


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A page-locked host array that is also a device array (zero-copy)."""
    shape = _shape(shape)
    dtype = np.dtype(dtype)
    nbytes = _nbytes(shape, None if strides is None else _shape(strides), dtype.itemsize)
    memory = current_context().memhostalloc(nbytes, mapped=True, portable=portable, wc=wc)
    return _over(memory, MappedNDArray, shape, dtype, strides, order, stream)


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """An array in managed memory, usable on the host and by kernels without
    copies (cuMemAllocManaged on the GPU; host memory on the CPU backend).
    With attach_global=False it is attached to the host until a stream uses it."""
    shape = _shape(shape)
    dtype = np.dtype(dtype)
    nbytes = _nbytes(shape, None if strides is None else _shape(strides), dtype.itemsize)
    memory = current_context().memallocmanaged(nbytes, attach_global=attach_global)
    return _over(memory, ManagedNDArray, shape, dtype, strides, order, stream)


def _host_range(array):
    return host_pointer(array), host_memory_size(array)


@contextlib.contextmanager
def pinned(*arrays):
    """Page-locks the host arrays while the block runs (faster copies on the
    GPU); they are unpinned at its end, exceptions included."""
    ctx = current_context()
    held = []
    try:
        for array in arrays:
            pointer, size = _host_range(array)
            held.append(ctx.mempin(array, pointer, size, mapped=False))
        yield
    finally:
        held.clear()


@contextlib.contextmanager
def mapped(*arrays, **kws):
    """Maps the host arrays into the device's address space while the block
    runs and yields device arrays viewing them in place (one array, or a
    list): kernels work on the host memory directly."""
    stream = kws.get("stream", 0)
    ctx = current_context()
    held = []
    views = []
    try:
        for array in arrays:
            array = np.asarray(array) if not isinstance(array, np.ndarray) else array
            pointer, size = _host_range(array)
            memory = ctx.mempin(array, pointer, size, mapped=True)
            held.append(memory)
            views.append(_device_view(array, memory, stream))
        yield views[0] if len(views) == 1 else list(views)
    finally:
        views.clear()
        held.clear()


class _MappedInterface:
    def __init__(self, desc, memory):
        self.__cuda_array_interface__ = desc
        self.memory = memory


def _device_view(array, memory, stream):
    desc = {"shape": array.shape, "strides": array.strides, "data": (array.ctypes.data, False),
            "typestr": array.dtype.str, "version": 3, "stream": None}
    view = _cuhost.as_cuda_array(_MappedInterface(desc, memory), sync=False)
    return view.bind(stream) if stream else view
