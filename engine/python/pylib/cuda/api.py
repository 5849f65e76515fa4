"""The host-side memory, stream and device API of `cuda` (numba-cuda's names).

The heavy lifting is in `_cuhost` (DeviceNDArray, Stream, Event and the
copies); this module adds numba's argument conventions and the Device
objects. On the CPU backend device memory is host memory, streams are
in-order and synchronous, and the one device is the CPU itself: `gpus[0]`,
compute capability 9.0 (the GPU target whose kernel language the CPU backend
implements), the launch limits of such a device, host memory as its memory.
"""
import contextlib

import numpy as np

import _cuhost
from _cuhost import (
    DeviceNDArray,
    Event,
    Stream,
    as_cuda_array,
    default_stream,
    event,
    event_elapsed_time,
    external_stream,
    host_array,
    host_stream,
    is_cuda_array,
    legacy_default_stream,
    per_thread_default_stream,
    stream,
    synchronize,
)

from .cudadrv._contexts import driver
from .cudadrv._device_record import record_to_device
from .cudadrv._ipc import IpcHandle
from .cudadrv.driver import profile_start as start, profile_stop as stop

__all__ = [
    "DeviceNDArray", "Stream", "Event", "to_device", "device_array", "device_array_like", "pinned_array",
    "pinned_array_like", "pinned", "mapped_array", "mapped", "MappedNDArray", "ManagedNDArray", "as_cuda_array",
    "is_cuda_array", "stream", "default_stream",
    "legacy_default_stream", "per_thread_default_stream", "external_stream", "host_stream", "host_array",
    "event", "event_elapsed_time", "synchronize", "gpus", "select_device", "get_current_device",
    "current_context", "close", "list_devices", "Device", "require_context", "is_supported_version",
    "is_float16_supported", "is_bfloat16_supported", "is_fp8_supported", "cuda_error",
]


def _dimension(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError("array dimensions must be integers, not %s (%r)" % (type(value).__name__, value))
    return int(value)


def _shape(shape):
    """A shape (or strides) as a tuple of ints: an int, or a sequence (a
    NumPy array too) of ints; TypeError for anything else (1.5, "3")."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, (bool, np.bool_)):
        return (int(shape),)
    return tuple(_dimension(s) for s in shape)


def _order_of(ary):
    flags = getattr(ary, "flags", None)
    if flags is not None and flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"]:
        return "F"
    if isinstance(ary, DeviceNDArray) and ary.is_f_contiguous() and not ary.is_c_contiguous():
        return "F"
    return "C"


def _like_strides(ary):
    """Strides of a new contiguous array like `ary`: None when `ary` is
    contiguous (or 1-d), else its axes laid out in the order of its strides
    (NumPy's empty_like(order="K"), as numba-cuda does)."""
    flags = ary.flags
    if flags["C_CONTIGUOUS"] or flags["F_CONTIGUOUS"] or ary.ndim <= 1:
        return None
    strides = [0] * ary.ndim
    step = ary.dtype.itemsize
    for axis in sorted(range(ary.ndim), key=lambda a: ary.strides[a]):
        strides[axis] = step
        step *= ary.shape[axis]
    return tuple(strides)


def to_device(obj, stream=0, copy=True, to=None):
    """Copy a host array (or anything np.asarray accepts) to a new device array,
    or into `to` when given. Device arrays are returned as they are."""
    _require_driver()
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    if isinstance(obj, np.void) and obj.dtype.names is not None:  # a record: a DeviceRecord
        return record_to_device(obj, stream=stream, copy=copy)
    obj = np.asarray(obj)
    if obj.size == 0 and all(st >= 0 for st in obj.strides):  # nothing to copy; the host's strides are kept
        return _cuhost._device_array(obj.shape, obj.dtype, obj.strides, "C", stream)
    if obj.dtype.kind in "mM":  # datetimes have no buffer protocol: their int64 words are copied
        return _cuhost._to_device(obj.view(np.int64), stream, bool(copy)).view(obj.dtype)
    return _cuhost._to_device(obj, stream, bool(copy))


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialized device array."""
    _require_driver()
    return _cuhost._device_array(_shape(shape), np.dtype(dtype), None if strides is None else _shape(strides),
                                 order, stream)


def device_array_like(ary, stream=0):
    """An uninitialized device array with the shape, dtype and layout of `ary`
    (contiguous, its axes in the order of `ary`'s strides)."""
    return device_array(ary.shape, ary.dtype, strides=_like_strides(ary), order=_order_of(ary), stream=stream)


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array in page-locked host memory (plain aligned memory on the CPU)."""
    _require_driver()
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
    """A pinned array with the shape, dtype and layout of `ary`."""
    return pinned_array(ary.shape, ary.dtype, strides=_like_strides(ary), order=_order_of(ary))


from ._host_arrays import ManagedNDArray, MappedNDArray, managed_array, mapped, mapped_array, pinned  # noqa: E402


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """A mapped array with the shape, dtype and order of `ary`."""
    return mapped_array(ary.shape, ary.dtype, strides=_like_strides(ary), order=_order_of(ary), stream=stream,
                        portable=portable, wc=wc)


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


def defer_cleanup():
    """Defers the release of device memory (the current context's pending
    deallocations) while the block runs: kernels still running may use
    memory whose last reference went away."""
    return current_context().defer_cleanup()


def profile_start():
    """Starts the CUDA profiler's data collection (cuProfilerStart; it needs
    a current context, made current here as numba-cuda's require_context does)."""

    current_context()
    start()


def profile_stop():
    """Stops the CUDA profiler's data collection (cuProfilerStop)."""

    current_context()
    stop()


@contextlib.contextmanager
def profiling():
    """Profiles the block (profile_start() on entry, profile_stop() on exit)."""
    profile_start()
    try:
        yield
    finally:
        profile_stop()


# ---- devices and contexts (cudadrv/_contexts.py) ------------------------------

from .cudadrv._contexts import (  # noqa: E402
    Device,
    check_switch as _check_switch,
    close,
    current_context as _current_context,
    gpus,
    require_context,
    require_driver as _require_driver,
)


def current_context(devnum=None):
    """The current context (numba's cuda.current_context); see cudadrv._contexts."""
    return _current_context(devnum)


def get_current_device():
    """The device kernels run on (the CPU on the CPU backend)."""
    _require_driver()
    return gpus[_cuhost._current_device_id()]


def select_device(device_id):
    """Make device `device_id` current for the calling thread; returns its Device."""
    _require_driver()
    _check_switch(int(device_id))
    _cuhost._select_device(int(device_id))
    return gpus[int(device_id)]


def list_devices():
    return list(gpus)


def cuda_error():
    """Why the driver could not be initialized (None when it was)."""

    return driver.initialization_error


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
    _auto_device
""")


@contextlib.contextmanager
def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    """Opens the memory another process shared (its IPC handle's 64 bytes,
    or a CUipcMemHandle) as a device array of `shape` and `dtype` for the
    block; `offset` is the array's byte offset into the shared allocation."""
    # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
    from ._bindings.driver import CUipcMemHandle

    dtype = np.dtype(dtype)
    shape = _shape(shape)
    size = dtype.itemsize
    for n in shape:
        size *= n
    if not isinstance(handle, CUipcMemHandle):
        handle = CUipcMemHandle(bytes(handle))
    ipc = IpcHandle(None, handle, size, offset=offset)
    array = ipc.open_array(current_context(), shape=shape, strides=strides, dtype=dtype)
    try:
        yield array
    finally:
        ipc.close()
__all__ += ["from_cuda_array_interface", "managed_array", "open_ipc_array", "mapped_array_like", "defer_cleanup",
            "profiling", "profile_start", "profile_stop"]
