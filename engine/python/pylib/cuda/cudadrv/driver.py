"""numba.cuda.cudadrv.driver: numba-cuda's driver layer under its names.

The objects live in cuhost's own modules: the driver, devices and contexts
in _contexts.py, memory objects and copies in _memory.py, memory managers
and pending deallocations in _memory_managers.py, IPC in _ipc.py, loaded
modules in _modules.py and the linker in _linker.py. Streams and events are
cuhost's (_cuhost.Stream, _cuhost.Event). `binding` is cuhost's
cuda.bindings.driver.
"""
import contextlib
import os
import re
import sys

import _cuhost
from _cuhost import Event, Stream, event_elapsed_time  # noqa: F401

from .._bindings import driver as binding
from ..core._cuda_python import Stream as CoreStream
from ._contexts import (  # noqa: F401
    CU_STREAM_DEFAULT,
    MIN_REQUIRED_CC,
    Context,
    Device,
    Driver,
    _ActiveContext,
    driver,
    require_driver,
)
from ._memory import (  # noqa: F401
    AutoFreePointer,
    DeadMemoryError,
    ManagedMemory,
    ManagedOwnedPointer,
    MappedMemory,
    MappedOwnedPointer,
    MemoryInfo,
    MemoryPointer,
    OwnedPointer,
    PinnedMemory,
    device_ctypes_pointer,
    device_extents,
    device_memory_depends,
    device_memory_size,
    device_memset,
    device_pointer,
    device_to_device,
    device_to_host,
    host_memory_extents,
    host_memory_size,
    host_pointer,
    host_to_device,
    is_device_memory,
    memory_size_from_info,
    require_device_memory,
)
from ._memory_managers import (  # noqa: F401
    _SUPPORTED_EMM_INTERFACE_VERSION,
    BaseCUDAMemoryManager,
    GetIpcHandleMixin,
    HostOnlyCUDAMemoryManager,
    NumbaCUDAMemoryManager,
    PendingDeallocs as _PendingDeallocs,
    _ensure_memory_manager,
    _SizeNotSet,
    set_memory_manager,
)
from .error import CudaDriverError, CudaSupportError  # noqa: F401

CudaAPIError = _cuhost.CudaAPIError
LinkerError = _cuhost.LinkerError

# Both backends share device memory between processes on Linux (the GPU
# through CUDA IPC, the CPU backend through memfds).
SUPPORTS_IPC = sys.platform.startswith("linux")

# CUresult value -> name.
ERROR_MAP = {int(code): code.name for code in binding.CUresult}


def _have_nvjitlink():
    """cuhost always links device code with nvJitLink (it is linked into the host)."""
    return True


def get_version():
    """The driver's version as (major, minor)."""
    return driver.get_version()


def profile_start():
    """Starts the profiler's data collection (cuProfilerStart; nothing to
    collect on the CPU backend)."""
    driver.cuProfilerStart()


def profile_stop():
    """Stops the profiler's data collection (cuProfilerStop)."""
    driver.cuProfilerStop()


@contextlib.contextmanager
def profiling():
    """Profiles the block: profile_start() on entry, profile_stop() on exit."""
    profile_start()
    try:
        yield
    finally:
        profile_stop()


def inspect_obj_content(objpath):
    """The kinds of code (e.g. "elf", "ptx", "nvvm") a fatbin or object file
    holds, as cuobjdump lists them."""
    tool = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "cuobjdump")
    try:
        import subprocess  # only here: a fresh process need not import it

        out = subprocess.run([tool if os.path.exists(tool) else "cuobjdump", objpath], check=True,
                             capture_output=True)
    except FileNotFoundError as e:
        raise RuntimeError("cuobjdump has not been found. You may need to install the CUDA toolkit and ensure that "
                           "it is available on your PATH.\n") from e
    kinds = set()
    for line in out.stdout.decode("utf-8").split("\n"):
        m = re.match(r"Fatbin (.*) code", line)
        if m:
            kinds.add(m.group(1))
    return kinds


def _stream_handle(stream):
    """The CUstream (an int) of 0, a Stream, or any object with __cuda_stream__."""
    if isinstance(stream, int) and stream == 0:
        return 0
    if isinstance(stream, Stream):
        return int(stream.handle)
    if hasattr(stream, "__cuda_stream__"):
        _version, handle = stream.__cuda_stream__()
        return int(handle)
    raise TypeError("Expected a Stream object or 0, got %s" % type(stream).__name__)


def _to_core_stream(stream):
    """cuda.core's Stream for a numba stream (cuhost's cuda.core.Stream)."""

    if stream is None or (isinstance(stream, int) and stream == 0):
        raise ValueError("Expected a Stream object, got %r" % (stream,))
    return CoreStream.from_handle(_stream_handle(stream))


def get_devptr_for_active_ctx(ptr):
    """The device address usable in the current context for `ptr` (unified
    addressing: the address itself)."""
    return binding.CUdeviceptr(int(ptr or 0))


def __getattr__(name):
    # The parts of the driver layer that live in their own modules, loaded on first use.
    if name in ("IpcHandle",):
        from . import _ipc

        return getattr(_ipc, name)
    if name in ("CudaPythonModule", "CudaPythonFunction", "load_module_image", "FuncAttr", "Function"):
        from . import _modules

        return getattr(_modules, "CudaPythonFunction" if name == "Function" else name)
    if name in ("Linker", "_Linker", "LinkerOptions"):
        from . import _linker

        return getattr(_linker, name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


from .._missing import missing as _missing  # noqa: E402

# numba-cuda finds and loads libcuda from Python; cuhost loads it in C++
# (engine/cuda/driver.cpp), so these have no counterpart.
_missing(globals(), "find_driver load_driver locate_driver_and_loader make_logger DRIVER_NOT_FOUND_MSG "
         "DRIVER_LOAD_ERROR_MSG cu_stream_callback_pyobj", " (cuhost loads the CUDA driver in C++)")
