"""cuhost's `cuda` module: numba-cuda's API, compiled by cuhost's C++ engine.

The C++ half is the built-in `_cuhost` module; this package re-exports it
and adds the parts that are naturally Python (type objects, small helpers).
"""
import _cuhost
from _cuhost import (CudaError, TypingError, UnsupportedError, CompileError, NvrtcError,
                     LinkerError, CudaAPIError, CudaSupportError, KernelError, PluginError)
from . import types
from .types import *  # noqa: F401,F403  (float32, int32, void, CPointer, ...)

__version__ = _cuhost.version()


def backend():
    """The backend kernels run on: 'cuda' or 'cpu'."""
    return _cuhost.backend()


def is_available():
    """True when a CUDA driver and at least one GPU are usable."""
    return bool(_cuhost.driver_status()[0])


def detect():
    """Print the CUDA devices found (or why there are none); True if any."""
    available, reason, _, _ = _cuhost.driver_status()
    if not available:
        print("CUDA is not available: %s" % reason)
        print("cuhost runs kernels on the CPU backend")
        return False
    devs = _cuhost.devices()
    print("Found %d CUDA devices" % len(devs))
    for d in devs:
        print("id %d    %s    compute capability %d.%d" % ((d["id"], d["name"]) + tuple(d["compute_capability"])))
    return True
