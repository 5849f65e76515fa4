"""CUDA IPC: sharing device memory with other processes (numba-cuda's IpcHandle).

A handle names the allocation a piece of device memory lies in, plus the
memory's offset and size; it pickles (as its 64 bytes), so it can be sent to
another process, which opens it to get a pointer to the same memory. On the
GPU this is cuIpcGetMemHandle / cuIpcOpenMemHandle; on the CPU backend the
allocation's pages are shared through a memfd (engine/cpu/ipc_memory.h), with
the same semantics: writes on either side are seen by the other. A handle
from a device the opening context cannot reach directly is opened "staged":
its memory is copied into a new allocation on the opening device.
"""
import _cuhost
from _cuhost import DeviceNDArray

from .._bindings import driver as binding
from . import _memory
from ._driver_object import driver


def make_ipc_handle(context, memory):
    """The IpcHandle of `memory` (a MemoryPointer or device array) in `context`."""
    pointer = _memory.device_pointer(memory)
    handle, base, _ = _cuhost._ipc_export(pointer)
    size = memory.nbytes if isinstance(memory, _cuhost.DeviceNDArray) else int(memory.size)
    source_info = context.device.get_device_identity() if hasattr(context.device, "get_device_identity") else None
    return IpcHandle(memory, binding.CUipcMemHandle(handle), size, source_info, offset=pointer - base)


def _rebuild_ipc_handle(reserved, size, source_info, offset):
    return IpcHandle(None, binding.CUipcMemHandle(reserved), size, source_info, offset=offset)


class _DirectOpening:
    """The handle's allocation mapped into this process."""

    def __init__(self, handle, context):
        self.address = _cuhost._ipc_open(bytes(handle.handle.reserved))
        self.pointer = _memory.MemoryPointer(context, self.address + handle.offset, handle.size)

    def close(self):
        _cuhost._ipc_close(self.address)


class _StagedOpening:
    """The handle's memory copied onto the opening context's device."""

    def __init__(self, handle, context):
        source = driver.get_device_of_identity(handle.source_info)
        with source:
            direct = _DirectOpening(handle, None)
        try:
            self.pointer = context.memalloc(handle.size)
            _memory.device_to_device(self.pointer, direct.pointer, handle.size)
        finally:
            with source:
                direct.close()

    def close(self):
        self.pointer = None


class IpcHandle:
    """A CUDA IPC handle: `base` (the memory it was made from, None once
    pickled), `handle` (a CUipcMemHandle), `size`, `offset` into the
    allocation and `source_info` (the exporting device's PCI identity)."""

    def __init__(self, base, handle, size, source_info=None, offset=0):
        self.base = base
        self.handle = handle
        self.size = size
        self.source_info = source_info
        self.offset = offset
        self._impl = None

    def _sentry_source_info(self):
        if self.source_info is None:
            raise RuntimeError("IPC handle doesn't have source info")

    def can_access_peer(self, context):
        """Whether `context`'s device can map the exporting device's memory."""
        self._sentry_source_info()
        if self.source_info == context.device.get_device_identity():
            return True
        source = driver.get_device_of_identity(self.source_info)
        return source.id == context.device.id

    def _open_with(self, kind, context):
        if self._impl is not None:
            raise ValueError("IpcHandle is already opened")
        self._impl = kind(self, context)
        return self._impl.pointer

    def open_staged(self, context):
        """Copies the memory into a new allocation in `context`."""
        self._sentry_source_info()
        return self._open_with(_StagedOpening, context)

    def open_direct(self, context):
        """Maps the memory into `context`."""
        return self._open_with(_DirectOpening, context)

    def open(self, context):
        """A MemoryPointer to the memory in `context` (mapped, or staged when
        the devices cannot reach each other)."""
        if self.source_info is None or self.can_access_peer(context):
            return self.open_direct(context)
        return self.open_staged(context)

    def open_array(self, context, shape, dtype, strides=None):
        """The memory as a device array of `shape` and `dtype`."""
        pointer = self.open(context)
        return DeviceNDArray(shape, strides, dtype, gpu_data=pointer)

    def close(self):
        if self._impl is None:
            raise ValueError("IpcHandle not opened")
        self._impl.close()
        self._impl = None

    def __reduce__(self):
        return _rebuild_ipc_handle, (bytes(self.handle.reserved), self.size, self.source_info, self.offset)


def open_ipc_memory(context, handle, size):
    """Context.open_ipc_handle: maps another process's memory (a MemoryPointer)."""
    if not isinstance(handle, binding.CUipcMemHandle):
        handle = binding.CUipcMemHandle(bytes(handle))
    return IpcHandle(None, handle, size).open_direct(context)
