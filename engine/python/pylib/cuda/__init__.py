"""cuhost's `cuda` module: numba-cuda's API, compiled by cuhost's C++ engine.

The C++ half is the built-in `_cuhost` module: every public name it defines
is re-exported here. The Python half adds type objects (`types`), the
host-side API written in Python (`api`) and the decorator/compile front end
(`compiler`), each re-exported too.
"""
import _cuhost
import pkgutil as _pkgutil

# numba.cuda is extensible the way a namespace is: a folder `numba/cuda/` on
# any sys.path entry contributes subpackages (numba-cuda's own test package
# `numba.cuda.tests` is laid out so, and so may a user's extension). cuhost's
# own modules come first.
__path__ = _pkgutil.extend_path(__path__, "numba.cuda")

for _name in dir(_cuhost):
    if not _name.startswith("_"):
        globals()[_name] = getattr(_cuhost, _name)

from . import config  # noqa: E402,F401  (numba.cuda.config)
from . import types  # noqa: E402
from .types import *  # noqa: E402,F401,F403  (float32, int32, void, CPointer, ...)

from .device_api import *  # noqa: E402,F401,F403  (threadIdx, syncthreads, atomic, shared, ffi, ...)

try:  # the host API written in Python
    from .api import *  # noqa: F401,F403
except ModuleNotFoundError as _e:
    if _e.name != __name__ + ".api":
        raise
try:  # @cuda.jit and the compile entry points
    from .compiler import *  # noqa: F401,F403
except ModuleNotFoundError as _e:
    if _e.name != __name__ + ".compiler":
        raise

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
