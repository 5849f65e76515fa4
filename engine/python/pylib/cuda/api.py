"""The host-side memory, stream and device API of `cuda` (numba-cuda's names).

The heavy lifting is in `_cuhost` (DeviceNDArray, Stream, Event and the
copies); this module adds numba's argument conventions and the Device
objects. On the CPU backend device memory is host memory, streams are
in-order and synchronous, and the one device is the CPU itself: `gpus[0]`,
compute capability 9.0 (the GPU target whose kernel language the CPU backend
implements), the launch limits of such a device, host memory as its memory.
"""
import contextlib
import functools
import threading

import numpy as np

import _cuhost
from _cuhost import (  # noqa: F401  (re-exported names)
    DeviceNDArray,
    Stream,
    Event,
    as_cuda_array,
    is_cuda_array,
    stream,
    default_stream,
    legacy_default_stream,
    per_thread_default_stream,
    external_stream,
    host_stream,
    host_array,
    event,
    event_elapsed_time,
    synchronize,
)

__all__ = [
    "DeviceNDArray", "Stream", "Event", "to_device", "device_array", "device_array_like", "pinned_array",
    "pinned_array_like", "pinned", "mapped_array", "mapped", "MappedNDArray", "as_cuda_array", "is_cuda_array",
    "stream", "default_stream",
    "legacy_default_stream", "per_thread_default_stream", "external_stream", "host_stream", "host_array",
    "event", "event_elapsed_time", "synchronize", "gpus", "select_device", "get_current_device",
    "current_context", "close", "list_devices", "Device", "require_context", "is_supported_version",
    "is_float16_supported", "is_bfloat16_supported", "is_fp8_supported",
]


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _order_of(ary):
    flags = getattr(ary, "flags", None)
    if flags is not None and flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"]:
        return "F"
    if isinstance(ary, DeviceNDArray) and ary.is_f_contiguous() and not ary.is_c_contiguous():
        return "F"
    return "C"


def to_device(obj, stream=0, copy=True, to=None):
    """Copy a host array (or anything np.asarray accepts) to a new device array,
    or into `to` when given. Device arrays are returned as they are."""
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    if isinstance(obj, np.void) and obj.dtype.names is not None:  # a record: a DeviceRecord
        from .cudadrv.devicearray import auto_device
        return auto_device(obj, stream=stream, copy=copy)[0]
    obj = np.asarray(obj)
    if obj.dtype.kind in "mM":  # datetimes have no buffer protocol: their int64 words are copied
        return _cuhost._to_device(obj.view(np.int64), stream, bool(copy)).view(obj.dtype)
    return _cuhost._to_device(obj, stream, bool(copy))


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialized device array."""
    return _cuhost._device_array(_shape(shape), np.dtype(dtype), None if strides is None else _shape(strides),
                                 order, stream)


def device_array_like(ary, stream=0):
    """An uninitialized device array with the shape, dtype and order of `ary`."""
    return device_array(ary.shape, ary.dtype, order=_order_of(ary), stream=stream)


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array in page-locked host memory (plain aligned memory on the CPU)."""
    shape = _shape(shape)
    dtype = np.dtype(dtype)
    count = 1
    for s in shape:
        count *= s
    nbytes = count * dtype.itemsize
    if strides is not None:
        strides = _shape(strides)
        nbytes = dtype.itemsize + sum((s - 1) * st for s, st in zip(shape, strides)) if count else 0
    buf = _cuhost._pinned_buffer(nbytes)
    return np.ndarray(shape, dtype=dtype, buffer=buf, strides=strides, order=order)


def pinned_array_like(ary):
    return pinned_array(ary.shape, ary.dtype, order=_order_of(ary))


class MappedNDArray(np.ndarray):
    """A host NumPy array in page-locked memory that kernels can also use in
    place: it exports __cuda_array_interface__ (with unified addressing the
    host pointer is valid on the device)."""

    @property
    def __cuda_array_interface__(self):
        return {
            "shape": self.shape,
            "strides": None if self.flags["C_CONTIGUOUS"] else self.strides,
            "data": (self.ctypes.data, not self.flags["WRITEABLE"]),
            "typestr": self.dtype.str,
            "version": 3,
            "stream": None,
        }


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A page-locked host array that is also a device array (zero-copy)."""
    return pinned_array(shape, dtype, strides, order).view(MappedNDArray)


@contextlib.contextmanager
def mapped(*arrays, **kwargs):
    """numba's mapped(): yields device views of the host arrays. Pageable
    NumPy memory is not device-visible on a GPU, so each array is copied in
    and back around the block instead."""
    devs = [to_device(a) for a in arrays]
    try:
        yield devs[0] if len(devs) == 1 else devs
    finally:
        for a, d in zip(arrays, devs):
            d.copy_to_host(a)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """A mapped array with the shape, dtype and order of `ary`."""
    return mapped_array(ary.shape, ary.dtype, order=_order_of(ary), stream=stream, portable=portable, wc=wc)


class _InterfaceOwner:
    """Holds a __cuda_array_interface__ dictionary and the object that owns
    its memory, so the view from_cuda_array_interface makes keeps both."""

    def __init__(self, desc, owner):
        self.__cuda_array_interface__ = desc
        self.owner = owner


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A DeviceNDArray viewing the memory a __cuda_array_interface__
    dictionary describes; `owner` is kept alive with the view, and `sync`
    waits for the interface's stream as as_cuda_array does."""
    if desc.get("mask") is not None:
        raise NotImplementedError("Masked arrays are not supported")
    return as_cuda_array(_InterfaceOwner(desc, owner), sync=sync)


@contextlib.contextmanager
def defer_cleanup():
    """numba's defer_cleanup(): cuhost never queues deallocations (device
    memory is freed when its last reference goes), so there
    is nothing to defer."""
    yield


@contextlib.contextmanager
def pinned(*arrays):
    """numba's pinned(): page-locks host arrays for the block. Copies from
    pageable memory are correct too, so this is a no-op context."""
    yield


# ---- devices ---------------------------------------------------------------

_entered = threading.local()  # per thread: the devices `with gpus[i]:` blocks will return to

class Device:
    """A device (numba's Device): id, name, compute_capability and attributes
    such as MAX_THREADS_PER_BLOCK or MULTIPROCESSOR_COUNT. On the CPU backend
    device 0 is the CPU."""

    def __init__(self, ordinal):
        self.id = ordinal

    @property
    def name(self):
        return _cuhost._device_name(self.id)

    @property
    def compute_capability(self):
        return (_cuhost._device_attribute(self.id, "COMPUTE_CAPABILITY_MAJOR"),
                _cuhost._device_attribute(self.id, "COMPUTE_CAPABILITY_MINOR"))

    @property
    def supports_float16(self):
        return self.compute_capability >= (5, 3)

    @property
    def supports_bfloat16(self):
        return self.compute_capability >= (8, 0)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _cuhost._device_attribute(self.id, name)

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(_cuhost._device_attribute_names()))

    def reset(self):
        synchronize()

    def __enter__(self):
        # The device is the calling thread's (numba pushes the device's
        # context on the thread's context stack); one Device object may be
        # entered by several threads at once.
        _check_switch(self.id)
        stack = _entered.__dict__.setdefault("devices", [])
        stack.append(_cuhost._current_device_id())
        select_device(self.id)
        return self

    def __exit__(self, *exc):
        select_device(_entered.devices.pop())
        return False

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return "<CUDA device %d '%s'>" % (self.id, self.name)


class _Gpus:
    """cuda.gpus: the devices kernels can run on (the CPU alone on the CPU backend)."""

    def __len__(self):
        return _cuhost._device_count()

    def __getitem__(self, i):
        n = len(self)
        if isinstance(i, slice):
            return [Device(k) for k in range(n)[i]]
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("device index %d out of range (%d device(s))" % (i, n))
        return Device(i)

    def __iter__(self):
        return iter([Device(k) for k in range(len(self))])

    @property
    def current(self):
        return get_current_device()

    def __repr__(self):
        return "<Managed Device list: %d device(s)>" % len(self)


gpus = _Gpus()


def get_current_device():
    """The device kernels run on (the CPU on the CPU backend)."""
    return Device(_cuhost._current_device_id())


def _check_switch(device_id):
    # Inside a @require_context function the thread's device is fixed (numba's
    # attached context): switching raises, as in numba-cuda.
    attached = getattr(_entered, "attached", None)
    if attached is not None and attached != device_id:
        raise RuntimeError("Cannot switch CUDA-context.")


def select_device(device_id):
    """Make device `device_id` current for the calling thread; returns its Device."""
    _check_switch(int(device_id))
    _cuhost._select_device(int(device_id))
    return Device(int(device_id))


def list_devices():
    return list(gpus)


class _MemoryManager:
    """The current context's memory manager (numba's NumbaCUDAMemoryManager
    interface, version 1). cuhost's host owns device memory and frees an
    allocation as soon as its last reference goes: there is no pending
    deallocation queue, and external (EMM) plugins cannot replace it."""

    interface_version = 1
    initialized = True

    def __init__(self, context):
        self.context = context

    def initialize(self):
        pass

    def memalloc(self, size):
        return self.context.memalloc(size)

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        return self.context.memhostalloc(size, mapped, portable, wc)

    def get_memory_info(self):
        return self.context.get_memory_info()

    def reset(self):
        synchronize()

    @contextlib.contextmanager
    def defer_cleanup(self):
        yield

    @property
    def deallocations(self):
        raise NotImplementedError("Context.memory_manager.deallocations is not implemented in cuhost: device memory "
                                  "is freed when its last reference goes, with no pending-deallocation queue")


class _Context:
    """The current device's primary context (cuhost shares it with the host)."""

    def __init__(self, device):
        self.device = device
        self.memory_manager = _MemoryManager(self)

    @property
    def handle(self):
        return None

    def get_memory_info(self):
        """(free, total) bytes of device memory."""
        from .cudadrv.driver import MemoryInfo

        with self.device:
            return MemoryInfo(*_cuhost._memory_info())

    def synchronize(self):
        with self.device:
            synchronize()

    def can_access_peer(self, peer_device):
        """Whether kernels on this context's device can use the memory of
        device `peer_device` (cuDeviceCanAccessPeer). Launches enable the
        access when they first need it."""
        peer = getattr(peer_device, "id", peer_device)
        return _cuhost._can_access_peer(self.device.id, int(peer))

    def reset(self):
        """numba's Context.reset: waits for outstanding work, then unloads
        every kernel module (their teardown callbacks run; later launches load
        them again). Device memory stays with the arrays that own it, and the
        host keeps the context itself."""
        synchronize()
        _cuhost._unload_modules()

    def memalloc(self, size):
        """`size` bytes of device memory (a driver.MemoryPointer)."""
        from .cudadrv.driver import _memalloc

        return _memalloc(self, size)

    def memhostalloc(self, size, mapped=False, portable=False, wc=False):
        """`size` bytes of page-locked host memory (MappedMemory when `mapped`, else PinnedMemory)."""
        from .cudadrv.driver import _memhostalloc

        return _memhostalloc(self, size, mapped, portable, wc)

    def mempin(self, owner, pointer, size, mapped=False):
        raise NotImplementedError("Context.mempin is not implemented in cuhost: it cannot page-lock existing host "
                                  "memory; use Context.memhostalloc or cuda.pinned_array")

    def memallocmanaged(self, size, attach_global=True):
        raise NotImplementedError("Context.memallocmanaged is not implemented in cuhost: no managed memory")

    def get_default_stream(self):
        return default_stream()

    def get_legacy_default_stream(self):
        return legacy_default_stream()

    def get_per_thread_default_stream(self):
        return per_thread_default_stream()

    def create_stream(self):
        return stream()

    def create_external_stream(self, ptr):
        return external_stream(ptr)

    def __eq__(self, other):
        return isinstance(other, _Context) and other.device == self.device

    def __hash__(self):
        return hash(self.device)

    def __repr__(self):
        return "<CUDA context on %r>" % (self.device,)


def current_context(devnum=None):
    if devnum is not None:
        select_device(devnum)
    return _Context(get_current_device())


def require_context(fn):
    """numba's decorator: `fn` runs on the calling thread's device (contexts
    are made current on demand here) and cannot switch to another device
    (RuntimeError "Cannot switch CUDA-context.")."""

    @functools.wraps(fn)
    def _require_cuda_context(*args, **kwargs):
        if getattr(_entered, "attached", None) is not None:
            return fn(*args, **kwargs)
        _entered.attached = _cuhost._current_device_id()
        try:
            return fn(*args, **kwargs)
        finally:
            _entered.attached = None

    return _require_cuda_context


def close():
    """Waits for outstanding work on every device, runs the modules' teardown
    callbacks and unloads every kernel module (later launches load them
    again), and drops the calling thread's device choice (it uses the host's
    default device again, as a numba thread without a context uses device 0).
    The host owns the contexts, so they stay alive."""
    _cuhost._close()


def is_supported_version():
    return True


def is_float16_supported():
    """float16 works on every target cuhost compiles for (native f16 on the
    GPU, sm_53 and later; exact emulation on the CPU backend)."""
    return True


def is_bfloat16_supported():
    """bfloat16 works on the CPU backend and on GPUs of compute capability 8.0
    and later (numba-cuda's requirement)."""
    if not _cuhost._device_count():
        return True
    return get_current_device().compute_capability >= (8, 0)


def is_fp8_supported():
    """The fp8 types and conversions (numba.cuda._internal.cuda_fp8) are
    emitted as integer code, so they work on every target."""
    return True


from ._missing import missing as _missing  # noqa: E402

_missing(globals(), """
    managed_array open_ipc_array profiling profile_start profile_stop _auto_device
""")
__all__ += ["from_cuda_array_interface", "managed_array", "open_ipc_array", "mapped_array_like", "defer_cleanup",
            "profiling", "profile_start", "profile_stop"]
