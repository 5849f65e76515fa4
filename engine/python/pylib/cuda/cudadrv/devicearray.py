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


_missing(globals(), """
    DeviceRecord ManagedNDArray IpcArrayHandle from_array_like from_record_like
""")
