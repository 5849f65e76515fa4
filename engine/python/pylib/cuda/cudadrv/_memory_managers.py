"""numba-cuda's memory-manager interface (External Memory Management plugins)
and the pending-deallocation queue, over cuhost's allocator.

Every context has a memory manager. The default, NumbaCUDAMemoryManager,
allocates with cuhost's own allocator: device memory whose last owner lets
go goes to the device's pending-deallocation queue (runtime/pending_frees.h),
released in one go past CUDA_DEALLOCS_COUNT items or CUDA_DEALLOCS_RATIO of
the device's memory, on clear(), at a context reset, or when an allocation
fails for lack of memory; `defer_cleanup()` holds it back. A plugin
(a BaseCUDAMemoryManager subclass, installed with set_memory_manager or by
assigning Context.memory_manager) receives every device allocation of its
context instead, device arrays included: cuhost keeps the MemoryPointer the
plugin returns for as long as the memory is used, and its finalizer runs
when the last user lets go.
"""
import contextlib
import importlib
import weakref
from abc import ABCMeta, abstractmethod

import _cuhost

from .. import config
from . import _memory
from ._driver_object import driver
from ._ipc import make_ipc_handle
from ._memory import MemoryInfo

_SUPPORTED_EMM_INTERFACE_VERSION = 1


class _SizeNotSet(int):
    """The size of a queued release that has none (numba's placeholder)."""

    def __new__(cls, *args, **kwargs):
        return super().__new__(cls, 0)

    def __str__(self):
        return "?"


_SizeNotSet = _SizeNotSet()


class PendingDeallocs:
    """A device's pending deallocations (numba's _PendingDeallocs), kept by
    cuhost's runtime so that memory released by C++ owners (device arrays,
    launch temporaries) and Python releases (add_item) share one queue."""

    def __init__(self, device_id=0):
        self._device = int(device_id)

    @property
    def memory_capacity(self):
        return _cuhost._pending_frees(self._device)[2] or _SizeNotSet

    @property
    def _max_pending_bytes(self):
        return int(_cuhost._max_pending_bytes(self._device))

    @property
    def _size(self):
        return _cuhost._pending_frees(self._device)[1]

    def add_item(self, dtor, handle, size=_SizeNotSet):
        """Queues dtor(handle), which releases `size` bytes (flushing the
        queue if it is now over its limits)."""
        _cuhost._queue_free(self._device, lambda: dtor(handle), int(size))

    def clear(self):
        """Releases everything queued, unless deferred (then nothing)."""
        _cuhost._flush_pending_frees(self._device)

    @contextlib.contextmanager
    def disable(self):
        """Defers releases while the block runs (nests)."""
        _cuhost._defer_frees(self._device, True)
        try:
            yield
        finally:
            _cuhost._defer_frees(self._device, False)

    @property
    def is_disabled(self):
        return _cuhost._pending_frees(self._device)[3] > 0

    def __len__(self):
        return _cuhost._pending_frees(self._device)[0]

    def __repr__(self):
        count, size, _, deferred = _cuhost._pending_frees(self._device)
        return "<pending deallocations of device %d: %d item(s), %d bytes%s>" % (
            self._device, count, size, ", deferred" if deferred else "")


def _device_of(context):
    device = getattr(context, "device", None)
    return int(getattr(device, "id", 0) or 0) if device is not None else 0


class BaseCUDAMemoryManager(metaclass=ABCMeta):
    """Abstract base class for External Memory Management (EMM) Plugins."""

    def __init__(self, *args, **kwargs):
        if "context" not in kwargs:
            raise RuntimeError("Memory manager requires a context")
        self.context = kwargs.pop("context")

    @abstractmethod
    def memalloc(self, size):
        """Device memory of `size` bytes: a MemoryPointer that owns it."""

    @abstractmethod
    def memhostalloc(self, size, mapped, portable, wc):
        """Pinned host memory: a MappedMemory (mapped) or PinnedMemory."""

    @abstractmethod
    def mempin(self, owner, pointer, size, mapped):
        """Pins existing host memory: a MappedMemory (mapped) or PinnedMemory."""

    @abstractmethod
    def initialize(self):
        """Prepares the manager for use (called before any allocation)."""

    @abstractmethod
    def get_ipc_handle(self, memory):
        """An IPC handle for a device allocation."""

    @abstractmethod
    def get_memory_info(self):
        """(free, total) bytes, a MemoryInfo; may raise NotImplementedError."""

    @abstractmethod
    def reset(self):
        """Releases everything allocated in the context."""

    @abstractmethod
    def defer_cleanup(self):
        """A context manager that defers releases while active."""

    @property
    @abstractmethod
    def interface_version(self):
        """The EMM interface version the plugin implements (1)."""


class HostOnlyCUDAMemoryManager(BaseCUDAMemoryManager):
    """Base class of plugins that implement device allocation only: host
    allocations (pinned, mapped, managed memory, pinning) are cuhost's.
    Plugins overriding reset() or defer_cleanup() must call super()'s."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.allocations = {}
        self.deallocations = PendingDeallocs(_device_of(self.context))

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        mem = _memory._cuhost_host_memory(self.context, size, mapped)
        if mapped:
            self.allocations[mem.host_pointer] = mem
            owned = mem.own()
            _forget_when_released(self.allocations, mem.host_pointer, mem)
            return owned
        return mem

    def mempin(self, owner, pointer, size, mapped=False):
        """Pins `size` bytes at `pointer` (owned by `owner`) until the
        returned object goes (cuMemHostRegister; on the CPU backend the host
        memory is device memory already, and the registration is recorded)."""
        pointer = _memory._address(pointer)
        driver.cuMemHostRegister(pointer, size, 0x02 if mapped else 0)
        allocations = self.allocations

        def unpin():
            allocations.pop(pointer, None)
            driver.cuMemHostUnregister(pointer)

        if mapped:
            mem = _memory.MappedMemory(self.context, pointer, size, owner=owner, finalizer=unpin)
            self.allocations[pointer] = mem
            return mem.own()
        return _memory.PinnedMemory(self.context, pointer, size, owner=owner, finalizer=unpin)

    def memallocmanaged(self, size, attach_global=True):
        mem = _memory._cuhost_managed_memory(self.context, size, attach_global)
        return mem.own()

    def reset(self):
        """Forgets host allocations and releases the pending deallocations."""
        self.allocations.clear()
        self.deallocations.clear()

    @contextlib.contextmanager
    def defer_cleanup(self):
        with self.deallocations.disable():
            yield


def _forget_when_released(allocations, key, mem):
    weakref.finalize(mem, allocations.pop, key, None)


class GetIpcHandleMixin:
    """The default get_ipc_handle(): an IPC handle of the allocation the
    memory lies in, with the memory's offset into it."""

    def get_ipc_handle(self, memory):
        return make_ipc_handle(self.context, memory)


class NumbaCUDAMemoryManager(GetIpcHandleMixin, HostOnlyCUDAMemoryManager):
    """cuhost's own memory manager (numba-cuda's default)."""

    def initialize(self):
        pass

    def memalloc(self, size):
        return _memory._cuhost_memory(self.context, size)

    def get_memory_info(self):
        return MemoryInfo(*_cuhost._memory_info())

    @property
    def interface_version(self):
        return _SUPPORTED_EMM_INTERFACE_VERSION


_memory_manager = None


def _ensure_memory_manager():
    """The class new contexts get (config.CUDA_MEMORY_MANAGER names a module
    whose `_numba_memory_manager` is a plugin, or "default")."""
    global _memory_manager
    if _memory_manager is not None:
        return _memory_manager
    if config.CUDA_MEMORY_MANAGER == "default":
        _memory_manager = NumbaCUDAMemoryManager
        return _memory_manager
    try:
        module = importlib.import_module(config.CUDA_MEMORY_MANAGER)
        set_memory_manager(module._numba_memory_manager)
    except Exception as e:
        raise RuntimeError("Failed to use memory manager from %s" % config.CUDA_MEMORY_MANAGER) from e
    return _memory_manager


def set_memory_manager(mm_plugin):
    """Makes `mm_plugin` (a BaseCUDAMemoryManager subclass) the memory
    manager of contexts created from now on (cuda.close() lets go of the
    current ones). RuntimeError unless it implements interface version 1."""
    global _memory_manager
    dummy = mm_plugin(context=None)
    version = dummy.interface_version
    if version != _SUPPORTED_EMM_INTERFACE_VERSION:
        raise RuntimeError("EMM Plugin interface has version %d - version %d required" %
                           (version, _SUPPORTED_EMM_INTERFACE_VERSION))
    _memory_manager = mm_plugin


def is_cuhost_allocator(manager):
    """True when `manager` allocates device memory with cuhost's allocator
    (NumbaCUDAMemoryManager's memalloc, not a plugin's)."""
    return getattr(type(manager), "memalloc", None) is NumbaCUDAMemoryManager.memalloc
