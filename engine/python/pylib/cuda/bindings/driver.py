"""cuda-python's cuda.bindings.driver, implemented by cuhost.

The driver entry points numba-cuda code calls, with cuda-python's calling
convention: each function returns a tuple whose first item is a CUresult and
whose other items are the outputs (handles as CUcontext, CUstream, ...
objects that convert with int()). The calls are cuhost's (`_cuhost._driver_call`):
the CUDA driver on the CUDA backend, and on the CPU backend the CPU device's
answers (host memory, a per-thread context stack, stream identities; see
engine/cpu/driver_model.h). A name cuhost does not provide raises
AttributeError; `functions()` lists those it does.
"""
import enum as _enum

import _cuhost


class CUresult(_enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_OUT_OF_MEMORY = 2
    CUDA_ERROR_NOT_INITIALIZED = 3
    CUDA_ERROR_DEINITIALIZED = 4
    CUDA_ERROR_PROFILER_DISABLED = 5
    CUDA_ERROR_PROFILER_NOT_INITIALIZED = 6
    CUDA_ERROR_PROFILER_ALREADY_STARTED = 7
    CUDA_ERROR_PROFILER_ALREADY_STOPPED = 8
    CUDA_ERROR_STUB_LIBRARY = 34
    CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36
    CUDA_ERROR_DEVICE_UNAVAILABLE = 46
    CUDA_ERROR_NO_DEVICE = 100
    CUDA_ERROR_INVALID_DEVICE = 101
    CUDA_ERROR_DEVICE_NOT_LICENSED = 102
    CUDA_ERROR_INVALID_IMAGE = 200
    CUDA_ERROR_INVALID_CONTEXT = 201
    CUDA_ERROR_CONTEXT_ALREADY_CURRENT = 202
    CUDA_ERROR_MAP_FAILED = 205
    CUDA_ERROR_UNMAP_FAILED = 206
    CUDA_ERROR_ARRAY_IS_MAPPED = 207
    CUDA_ERROR_ALREADY_MAPPED = 208
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209
    CUDA_ERROR_ALREADY_ACQUIRED = 210
    CUDA_ERROR_NOT_MAPPED = 211
    CUDA_ERROR_NOT_MAPPED_AS_ARRAY = 212
    CUDA_ERROR_NOT_MAPPED_AS_POINTER = 213
    CUDA_ERROR_ECC_UNCORRECTABLE = 214
    CUDA_ERROR_UNSUPPORTED_LIMIT = 215
    CUDA_ERROR_CONTEXT_ALREADY_IN_USE = 216
    CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217
    CUDA_ERROR_INVALID_PTX = 218
    CUDA_ERROR_INVALID_GRAPHICS_CONTEXT = 219
    CUDA_ERROR_NVLINK_UNCORRECTABLE = 220
    CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222
    CUDA_ERROR_JIT_COMPILATION_DISABLED = 223
    CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY = 224
    CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 225
    CUDA_ERROR_CONTAINED = 226
    CUDA_ERROR_INVALID_SOURCE = 300
    CUDA_ERROR_FILE_NOT_FOUND = 301
    CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302
    CUDA_ERROR_SHARED_OBJECT_INIT_FAILED = 303
    CUDA_ERROR_OPERATING_SYSTEM = 304
    CUDA_ERROR_INVALID_HANDLE = 400
    CUDA_ERROR_ILLEGAL_STATE = 401
    CUDA_ERROR_LOSSY_QUERY = 402
    CUDA_ERROR_NOT_FOUND = 500
    CUDA_ERROR_NOT_READY = 600
    CUDA_ERROR_ILLEGAL_ADDRESS = 700
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701
    CUDA_ERROR_LAUNCH_TIMEOUT = 702
    CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING = 703
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704
    CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705
    CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE = 708
    CUDA_ERROR_CONTEXT_IS_DESTROYED = 709
    CUDA_ERROR_ASSERT = 710
    CUDA_ERROR_TOO_MANY_PEERS = 711
    CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712
    CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713
    CUDA_ERROR_HARDWARE_STACK_ERROR = 714
    CUDA_ERROR_ILLEGAL_INSTRUCTION = 715
    CUDA_ERROR_MISALIGNED_ADDRESS = 716
    CUDA_ERROR_INVALID_ADDRESS_SPACE = 717
    CUDA_ERROR_INVALID_PC = 718
    CUDA_ERROR_LAUNCH_FAILED = 719
    CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720
    CUDA_ERROR_TENSOR_MEMORY_LEAK = 721
    CUDA_ERROR_NOT_PERMITTED = 800
    CUDA_ERROR_NOT_SUPPORTED = 801
    CUDA_ERROR_SYSTEM_NOT_READY = 802
    CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803
    CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804
    CUDA_ERROR_MPS_CONNECTION_FAILED = 805
    CUDA_ERROR_MPS_RPC_FAILURE = 806
    CUDA_ERROR_MPS_SERVER_NOT_READY = 807
    CUDA_ERROR_MPS_MAX_CLIENTS_REACHED = 808
    CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED = 809
    CUDA_ERROR_MPS_CLIENT_TERMINATED = 810
    CUDA_ERROR_CDP_NOT_SUPPORTED = 811
    CUDA_ERROR_CDP_VERSION_MISMATCH = 812
    CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900
    CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901
    CUDA_ERROR_STREAM_CAPTURE_MERGE = 902
    CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903
    CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904
    CUDA_ERROR_STREAM_CAPTURE_ISOLATION = 905
    CUDA_ERROR_STREAM_CAPTURE_IMPLICIT = 906
    CUDA_ERROR_CAPTURED_EVENT = 907
    CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD = 908
    CUDA_ERROR_TIMEOUT = 909
    CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910
    CUDA_ERROR_EXTERNAL_DEVICE = 911
    CUDA_ERROR_INVALID_CLUSTER_SIZE = 912
    CUDA_ERROR_FUNCTION_NOT_LOADED = 913
    CUDA_ERROR_INVALID_RESOURCE_TYPE = 914
    CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = 915
    CUDA_ERROR_KEY_ROTATION = 916
    CUDA_ERROR_UNKNOWN = 999


class CUmemAttach_flags(_enum.IntEnum):
    CU_MEM_ATTACH_GLOBAL = 0x1
    CU_MEM_ATTACH_HOST = 0x2
    CU_MEM_ATTACH_SINGLE = 0x4


class CUfunc_cache(_enum.IntEnum):
    CU_FUNC_CACHE_PREFER_NONE = 0x00
    CU_FUNC_CACHE_PREFER_SHARED = 0x01
    CU_FUNC_CACHE_PREFER_L1 = 0x02
    CU_FUNC_CACHE_PREFER_EQUAL = 0x03


class CUfunction_attribute(_enum.IntEnum):
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4
    CU_FUNC_ATTRIBUTE_PTX_VERSION = 5
    CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6
    CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9


class CUstream_flags(_enum.IntEnum):
    CU_STREAM_DEFAULT = 0x0
    CU_STREAM_NON_BLOCKING = 0x1


CU_MEMHOSTALLOC_PORTABLE = 0x01
CU_MEMHOSTALLOC_DEVICEMAP = 0x02
CU_MEMHOSTALLOC_WRITECOMBINED = 0x04
CU_MEMHOSTREGISTER_PORTABLE = 0x01
CU_MEMHOSTREGISTER_DEVICEMAP = 0x02
CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 0x1


class _Handle:
    """A driver handle: an address or number that converts with int()."""

    __slots__ = ("_value",)

    def __init__(self, value=0):
        self._value = int(value or 0)

    def __int__(self):
        return self._value

    __index__ = __int__

    def getPtr(self):
        return self._value

    def __eq__(self, other):
        try:
            return type(self) is type(other) and int(self) == int(other)
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash((type(self).__name__, self._value))

    def __repr__(self):
        return "<%s 0x%x>" % (type(self).__name__, self._value)


class CUdevice(_Handle):
    __slots__ = ()


class CUcontext(_Handle):
    __slots__ = ()


class CUstream(_Handle):
    __slots__ = ()


class CUevent(_Handle):
    __slots__ = ()


class CUmodule(_Handle):
    __slots__ = ()


class CUlibrary(_Handle):
    __slots__ = ()


class CUkernel(_Handle):
    __slots__ = ()


class CUfunction(_Handle):
    __slots__ = ()


class CUdeviceptr(_Handle):
    __slots__ = ()


class CUuuid:
    """A device's UUID: 16 bytes."""

    def __init__(self, data=bytes(16)):
        self.bytes = bytes(data)

    def __repr__(self):
        return "<CUuuid %s>" % self.bytes.hex()


class CUipcMemHandle:
    """A CUDA IPC memory handle: 64 opaque bytes (`reserved`)."""

    def __init__(self, reserved=bytes(64)):
        self.reserved = bytes(reserved)

    def __bytes__(self):
        return self.reserved

    def __repr__(self):
        return "<CUipcMemHandle %s...>" % self.reserved[:8].hex()


# Output types of the entry points whose outputs are handles (others are ints).
_OUTPUTS = {
    "cuDeviceGet": (CUdevice,),
    "cuDeviceGetUuid": (CUuuid,),
    "cuDevicePrimaryCtxRetain": (CUcontext,),
    "cuCtxGetCurrent": (CUcontext,),
    "cuCtxPopCurrent": (CUcontext,),
    "cuCtxGetDevice": (CUdevice,),
    "cuCtxCreate": (CUcontext,),
    "cuMemAlloc": (CUdeviceptr,),
    "cuMemAllocManaged": (CUdeviceptr,),
    "cuMemGetAddressRange": (CUdeviceptr, int),
    "cuStreamCreate": (CUstream,),
    "cuLibraryGetGlobal": (CUdeviceptr, int),
    "cuModuleGetGlobal": (CUdeviceptr, int),
    "cuModuleLoadData": (CUmodule,),
    "cuModuleGetFunction": (CUfunction,),
    "cuIpcGetMemHandle": (CUipcMemHandle,),
    "cuIpcOpenMemHandle": (CUdeviceptr,),
}


def _argument(value):
    if isinstance(value, (CUuuid,)):
        return value.bytes
    if isinstance(value, CUipcMemHandle):
        return value.reserved
    return value


def _make(name):
    kinds = _OUTPUTS.get(name, ())

    def call(*args):
        result = _cuhost._driver_call(name, *map(_argument, args))
        code = CUresult(result[0]) if result[0] in CUresult._value2member_map_ else result[0]
        outs = result[1:]
        if kinds:
            outs = tuple(kind(value) for kind, value in zip(kinds, outs)) + outs[len(kinds):]
        return (code, *outs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = "The driver's %s: returns (CUresult, outputs...)." % name
    return call


def functions():
    """The entry points this module provides on the backend in use."""
    return list(_cuhost._driver_functions())


def __getattr__(name):
    if name.startswith("cu") and name in _cuhost._driver_functions():
        fn = _make(name)
        globals()[name] = fn
        return fn
    raise AttributeError("module 'cuda.bindings.driver' has no attribute %r" % name)


def __dir__():
    return sorted(set(globals()) | set(_cuhost._driver_functions()))
