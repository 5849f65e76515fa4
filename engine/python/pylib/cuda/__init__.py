"""cuhost's `cuda` module: numba-cuda's API, compiled by cuhost's C++ engine.

The C++ half is the built-in `_cuhost` module: every public name it defines
is re-exported here. The Python half adds type objects (`types`), the
host-side API written in Python (`api`) and the decorator/compile front end
(`compiler`), each re-exported too.

`numba.cuda` is this same package, and every numba-cuda module path
`numba.cuda.X` is the module `cuda.X` (see _aliases.py for the mechanism).
The names numba-cuda's package exposes that cuhost does not implement yet
are placeholders that raise NotImplementedError when used (_missing.py).
"""
import os as _os
import sys as _sys

import _cuhost

# numba.cuda is extensible the way a namespace package is: a folder
# `numba/cuda/` on any sys.path entry contributes subpackages (numba-cuda's
# own test package `numba.cuda.tests` is laid out so, and so may a user's
# extension). cuhost's own modules come first.
for _entry in list(_sys.path):
    _extra = _os.path.join(_entry or ".", "numba", "cuda")
    if isinstance(_entry, str) and _os.path.isdir(_extra) and _os.path.abspath(_extra) not in map(_os.path.abspath, __path__):
        __path__.append(_extra)

from . import _aliases, _unimplemented

_cuhost._record_exec_sources()  # kernels defined in exec()/compile() text compile too

_aliases.install()
_unimplemented.install()

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

# numba-cuda's package layout: the submodules it exposes as attributes.
from . import core, cudadrv, errors, typing, np, utils, args, kernels, cg, random, libdevice  # noqa: E402,F401
from . import fp16, bf16  # noqa: E402,F401  (half precision device functions)
from . import vector_types as _vector_types  # noqa: E402
from .cudadrv import nvvm, runtime  # noqa: E402,F401
from .cudadrv.error import CudaSupportError  # noqa: E402,F401,F811
from .errors import KernelRuntimeError  # noqa: E402,F401
from .args import In, Out, InOut  # noqa: E402,F401
from .kernels import reduction  # noqa: E402,F401
from .misc.special import literal_unroll  # noqa: E402,F401
from .np.ufunc import vectorize, guvectorize  # noqa: E402,F401
from .np.numpy_support import from_dtype  # noqa: E402,F401

# cuhost has no base numba: tests that need numba's CPU compiler skip themselves.
HAS_NUMBA = False
implementation = "cuhost"
config_default_cc = config.CUDA_DEFAULT_PTX_CC

for _name in _vector_types.__all__:
    globals()[_name] = getattr(_vector_types, _name)
reduce = Reduce = reduction.Reduce

from .cudadrv.driver import (  # noqa: E402,F401  (numba-cuda's memory-manager interface; placeholders)
    BaseCUDAMemoryManager, HostOnlyCUDAMemoryManager, GetIpcHandleMixin, MemoryPointer, MappedMemory, PinnedMemory,
    MemoryInfo, IpcHandle, set_memory_manager)
from ._missing import missing as _missing  # noqa: E402

# Device functions cuhost's compiler does not know yet.
_missing(globals(), "cuda_error")


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
