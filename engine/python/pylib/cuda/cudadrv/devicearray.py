"""numba.cuda.cudadrv.devicearray: device arrays under numba-cuda's names.

cuhost has one device array class, _cuhost.DeviceNDArray (numba's
DeviceNDArray and DeviceNDArrayBase), and a mapped host array
(cuda.api.MappedNDArray). Records and managed or IPC arrays are not
implemented yet.
"""
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


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """(device array, converted): `obj` itself when it is already on the
    device, else a new device array holding a copy of it."""
    if is_cuda_ndarray(obj):
        return obj, False
    return to_device(obj, stream=stream, copy=copy), True


_missing(globals(), """
    DeviceRecord ManagedNDArray IpcArrayHandle from_array_like from_record_like array_core is_contiguous
    sentry_contiguous check_array_compatibility
""")
