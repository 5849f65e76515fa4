"""numba.cuda.cudadrv.driver: the driver objects under numba-cuda's names.

Streams, events, devices and the driver's error classes are cuhost's own
(the context, memory and modules are owned by cuhost's C++ host, which
has no Python-level driver object). numba-cuda's memory-manager plugin
interface, raw memory pointers, explicit copies and its linker are not
implemented yet: those names raise NotImplementedError when used.
"""
import _cuhost
from _cuhost import Event, Stream, event_elapsed_time  # noqa: F401

from ..api import Device  # noqa: F401
from .._missing import missing as _missing
from .error import CudaDriverError, CudaSupportError  # noqa: F401

CudaAPIError = _cuhost.CudaAPIError
LinkerError = _cuhost.LinkerError

# numba-cuda's default-stream flag and the lowest compute capability it supports.
CU_STREAM_DEFAULT = 0
MIN_REQUIRED_CC = (3, 5)


class DeadMemoryError(RuntimeError):
    pass


def _have_nvjitlink():
    """cuhost always links device code with nvJitLink (it is linked into the host)."""
    return True


_missing(globals(), """
    driver Driver Context Function Linker _Linker LinkerOptions CudaPythonModule CudaPythonFunction FuncAttr
    load_module_image BaseCUDAMemoryManager HostOnlyCUDAMemoryManager GetIpcHandleMixin NumbaCUDAMemoryManager
    set_memory_manager MemoryInfo MemoryPointer AutoFreePointer MappedMemory PinnedMemory ManagedMemory
    OwnedPointer MappedOwnedPointer ManagedOwnedPointer IpcHandle
    host_to_device device_to_host device_to_device device_memset device_pointer device_ctypes_pointer
    device_extents device_memory_size device_memory_depends host_pointer host_memory_extents host_memory_size
    memory_size_from_info is_device_memory require_device_memory get_devptr_for_active_ctx
    profile_start profile_stop profiling get_version inspect_obj_content find_driver load_driver
    locate_driver_and_loader _to_core_stream _stream_handle
""")
