"""The device-side names of the `cuda` module as host objects.

Kernels use `cuda.threadIdx.x`, `cuda.syncthreads()`, `cuda.atomic.add(...)`
and friends; cuhost's compiler resolves them by name. These objects exist so
that numba-cuda scripts can also import them (`from numba.cuda import
threadIdx, syncthreads, atomic`) and pass them around as globals; calling one
on the host raises a clear error, as in numba.
"""

__all__ = []


class _DeviceConstant:
    """A compile-time constant of a device API, named by its place in `cuda`
    (a wmma fragment use or layout, an mma shape): kernels name it, the
    engine reads which one it is; on the host it only prints its name."""

    __slots__ = ("_qualname",)

    def __init__(self, qualname):
        self._qualname = qualname

    def __repr__(self):
        return "cuda.%s" % self._qualname


class _DeviceOnly:
    """A function usable only inside kernels."""

    __slots__ = ("_qualname",)

    def __init__(self, qualname):
        self._qualname = qualname

    def __call__(self, *args, **kwargs):
        raise TypeError("cuda.%s() can only be called inside a kernel or device function" % self._qualname)

    def __repr__(self):
        return "<cuda device function %s>" % self._qualname


class _Dim3:
    """threadIdx / blockIdx / blockDim / gridDim: .x, .y, .z inside kernels."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr in ("x", "y", "z"):
            raise TypeError("cuda.%s.%s is only meaningful inside a kernel" % (self._name, attr))
        raise AttributeError(attr)

    def __repr__(self):
        return "<cuda %s>" % self._name


class _Namespace:
    """cuda.atomic, cuda.shared, cuda.local, cuda.const (cuda.libdevice is the module libdevice.py)."""

    def __init__(self, name, functions):
        self._name = name
        for f in functions:
            setattr(self, f, _DeviceOnly("%s.%s" % (name, f)))

    def __repr__(self):
        return "<cuda namespace %s>" % self._name


def _export(name, value):
    globals()[name] = value
    __all__.append(name)


for _n in ("threadIdx", "blockIdx", "blockDim", "gridDim"):
    _export(_n, _Dim3(_n))

for _n in ("grid", "gridsize", "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or", "syncwarp",
           "threadfence", "threadfence_block", "threadfence_system", "shfl_sync", "shfl_up_sync", "shfl_down_sync",
           "shfl_xor_sync", "all_sync", "any_sync", "eq_sync", "ballot_sync", "activemask", "lanemask_lt",
           "match_any_sync", "match_all_sync", "fma",
           "cbrt", "brev", "clz", "ffs", "popc", "selp", "nanosleep",
           "ldca", "ldcg", "ldcs", "ldlu", "ldcv", "stcg", "stcs", "stwb", "stwt", "inline_ptx"):
    _export(_n, _DeviceOnly(_n))

_export("atomic", _Namespace("atomic", ["add", "sub", "max", "min", "nanmax", "nanmin", "and_", "or_", "xor",
                                        "exch", "inc", "dec", "cas", "compare_and_swap"]))
_export("shared", _Namespace("shared", ["array"]))
_export("local", _Namespace("local", ["array"]))
_export("const", _Namespace("const", ["array_like"]))

# laneid and warpsize are values inside kernels; on the host they are plain markers.
_export("laneid", _DeviceOnly("laneid"))
_export("warpsize", 32)


class FFI:
    """cuhost's stand-in for cffi.FFI, for kernels that pass array data to C:
    `ffi.from_buffer(array)` inside a kernel gives the data pointer. On the
    host it returns the address of a NumPy array's data."""

    def from_buffer(self, obj):
        iface = getattr(obj, "__array_interface__", None) or getattr(obj, "__cuda_array_interface__", None)
        if iface is None:
            raise TypeError("from_buffer() needs an array, not %s" % type(obj).__name__)
        return iface["data"][0]


_export("FFI", FFI)
_export("ffi", FFI())
