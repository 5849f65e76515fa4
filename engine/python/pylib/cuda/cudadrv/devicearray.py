"""numba.cuda.cudadrv.devicearray: device arrays under numba-cuda's names.

cuhost has one device array class, _cuhost.DeviceNDArray (numba's
DeviceNDArray and DeviceNDArrayBase), host arrays kernels use in place
(MappedNDArray, ManagedNDArray: cuda/_host_arrays.py), DeviceRecord (one
record of a structured dtype in device memory: an element of a device
record array, or a record copied with to_device) and IpcArrayHandle (a
device array to open in another process). The `_array_*` functions are the
Python half of DeviceNDArray (its memory-object API: gpu_data,
device_ctypes_pointer, get_ipc_handle, split).
"""
import ctypes as _ctypes

import numpy as _np

import _cuhost
from _cuhost import DeviceNDArray

from ..api import ManagedNDArray, MappedNDArray, to_device  # noqa: F401
from . import _memory
from ._contexts import current_context, driver
from ._device_record import DeviceRecord, record_to_device

DeviceRecord.__module__ = __name__  # numba's path for the class: its repr and pickles name it here

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


def record_from_view(view):
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
    if hasattr(obj, "__cuda_array_interface__") and not isinstance(obj, _np.ndarray):
        return _cuhost.as_cuda_array(obj), False
    if isinstance(obj, _np.void) and obj.dtype.names is not None:
        return record_to_device(obj, stream=stream, copy=copy), True
    obj = _np.asarray(obj)
    sentry_contiguous(obj)  # numba's auto_device copies one contiguous region
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


def from_array_like(ary, stream=0, gpu_data=None):
    """A device array with the shape, strides and dtype of `ary`: new
    (uninitialized) memory, or a view of `gpu_data` when given."""
    return DeviceNDArray(ary.shape, ary.strides, ary.dtype, stream=stream, gpu_data=gpu_data)


class IpcArrayHandle:
    """A device array to open in another process: `open()` (or `with
    handle as array:`) gives a device array over the shared memory, `close()`
    lets go of it. It pickles, so it can be sent to the other process."""

    def __init__(self, ipc_handle, array_desc):
        self._ipc_handle = ipc_handle
        self._array_desc = array_desc

    def open(self):
        memory = self._ipc_handle.open(current_context())
        return DeviceNDArray(gpu_data=memory, **self._array_desc)

    def close(self):
        self._ipc_handle.close()

    def __enter__(self):
        return self.open()

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()


# ---- the Python half of DeviceNDArray --------------------------------------------------

def _extent(ary):
    """(low, high) addresses of the bytes `ary` spans."""
    start = ary.device_pointer
    if not ary.size:
        return start, start
    low = high = 0
    for n, stride in zip(ary.shape, ary.strides):
        span = (n - 1) * stride
        if span < 0:
            low += span
        else:
            high += span
    return start + low, start + high + ary.dtype.itemsize


def _context_of_current_device():
    return driver.get_device(_cuhost._current_device_id()).get_primary_context()


def _array_gpu_data(ary):
    """The memory `ary` lies in, as numba's gpu_data: the allocation's
    MemoryPointer, or a view of it covering the array's extent."""

    base, size, owner, managed, whole = _cuhost._allocation_of(ary)
    context = _context_of_current_device()
    if whole is not None and owner is None:  # cuhost's own memory
        kind = _memory.ManagedMemory if managed else _memory.MemoryPointer
        mem = kind(context, base, size, _bytes=whole)
    elif owner is not None and _memory.is_device_memory(owner) and hasattr(owner, "view"):
        mem = owner  # a memory manager's (or a caller's) memory object
        base, size = _memory.device_pointer(owner), int(owner.size)
    else:  # borrowed memory (the CUDA Array Interface): kept alive by the array
        mem = _memory.MemoryPointer(context, base, size)
        mem._keepalive = ary
    low, high = _extent(ary)
    if low == base and high - low == size:
        return mem
    return mem.view(low - base, high - base)


def _array_device_ctypes_pointer(ary):
    return _ctypes.c_size_t(ary.device_pointer)


def _array_get_ipc_handle(ary):
    ipch = current_context().get_ipc_handle(ary.gpu_data)
    desc = {"shape": ary.shape, "strides": ary.strides, "dtype": ary.dtype}
    return IpcArrayHandle(ipc_handle=ipch, array_desc=desc)


def _array_split(ary, section, stream=0):
    """Views of consecutive pieces of `section` elements of a 1-d array of unit stride."""
    if ary.ndim != 1:
        raise ValueError("only support 1d array")
    if ary.strides[0] != ary.dtype.itemsize:
        raise ValueError("only support unit stride")
    stream = stream or ary.stream
    count = -(-ary.size // section)
    for i in range(count):
        piece = ary[i * section:min((i + 1) * section, ary.size)]
        yield piece.bind(stream) if stream else piece
