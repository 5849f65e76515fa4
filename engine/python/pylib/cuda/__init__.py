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

try:
    import numpy as _numpy  # noqa: F401
except ModuleNotFoundError as _e:
    if _e.name != "numpy":
        raise
    raise ModuleNotFoundError(
        "cuhost's `cuda` module needs NumPy, which the Python environment %s does not have: install it there "
        "(cuhost -m pip install numpy)" % _sys.prefix, name="numpy") from None

# numba.cuda is extensible the way a namespace package is: a folder
# `numba/cuda/` on any sys.path entry contributes subpackages (numba-cuda's
# own test package `numba.cuda.tests` is laid out so, and so may a user's
# extension). cuhost's own modules come first. numba's own built-in CUDA
# target (numba/cuda in an installed numba) is not such an extension:
# numba.cuda is cuhost, as with numba-cuda installed.
from . import _aliases, _installed, _unimplemented

for _entry in list(_sys.path):
    _extra = _os.path.join(_entry or ".", "numba", "cuda")
    _own_folders = map(_os.path.abspath, __path__)
    if isinstance(_entry, str) and _os.path.isdir(_extra) and _os.path.abspath(_extra) not in _own_folders:
        if _installed.is_numba_folder(_os.path.dirname(_extra)):
            continue
        __path__.append(_extra)

# NVIDIA's cuda-python beside cuhost: its cuda.bindings, cuda.core and
# cuda.pathfinder are served (see _installed.py).
_installed.install(__path__)

_cuhost._record_exec_sources()  # kernels defined in exec()/compile() text compile too

_aliases.install()
_unimplemented.install()

for _name in dir(_cuhost):
    if not _name.startswith("_"):
        globals()[_name] = getattr(_cuhost, _name)

from . import config  # noqa: E402  (numba.cuda.config)
from . import types  # noqa: E402, F401  (numba.cuda.types)
from . import _late_bound  # noqa: E402, F401  (what cuda.types and its neighbours call in modules built on them)
from .types import *  # noqa: E402, F403  (float32, int32, void, CPointer, ...)

from .device_api import *  # noqa: E402, F403  (threadIdx, syncthreads, atomic, shared, ffi, ...)

try:  # the host API written in Python
    from .api import *  # noqa: F403
except ModuleNotFoundError as _e:
    if _e.name != __name__ + ".api":
        raise
try:  # @cuda.jit and the compile entry points
    from .compiler import *  # noqa: F403
except ModuleNotFoundError as _e:
    if _e.name != __name__ + ".compiler":
        raise

__version__ = _cuhost.version()

# numba-cuda's package layout: the submodules it exposes as attributes.
from . import core, cudadrv, errors, typing, np, utils, args, kernels, cg, random, libdevice  # noqa: E402,F401
from . import fp16, bf16  # noqa: E402,F401  (half precision device functions)
from . import wmma  # noqa: E402,F401  (tensor-core matrix multiply-accumulate, docs/HOPPER.md)
from . import mma  # noqa: E402,F401  (register-fragment mma.sync, ldmatrix, cp.async, docs/HOPPER.md)
from . import descriptor  # noqa: E402,F401  (numba.cuda.descriptor.cuda_target)
from . import vector_types as _vector_types  # noqa: E402
from .cudadrv import nvvm, runtime  # noqa: E402,F401
# numba.cuda.devices, .driver and .devicearray are the driver-layer modules
# (cuhost's device list as dicts stays _cuhost.devices()).
from .cudadrv import devicearray, devices, driver  # noqa: E402, F401
from .cudadrv.error import CudaSupportError  # noqa: E402, F401
from .errors import KernelRuntimeError  # noqa: E402,F401
from .args import In, Out, InOut  # noqa: E402,F401
from .kernels import reduction  # noqa: E402
from .misc.special import literal_unroll  # noqa: E402,F401
from .np.ufunc import vectorize, guvectorize  # noqa: E402,F401
from .np.numpy_support import from_dtype  # noqa: E402,F401

# The `numba` package inside cuhost (cuhost's own, pylib/numba) is numba's
# interface for CUDA code: numba.types/errors/extending, and numba.njit, whose
# functions kernels may call (as numba-cuda compiles @njit functions that
# kernels call). Code that checks HAS_NUMBA before using them finds them; what
# needs numba's CPU compiler (calling an njit function on the host) raises
# NotImplementedError naming it.
HAS_NUMBA = True
implementation = "cuhost"
config_default_cc = config.CUDA_DEFAULT_PTX_CC

for _name in _vector_types.__all__:
    globals()[_name] = getattr(_vector_types, _name)
reduce = Reduce = reduction.Reduce

from .cudadrv.driver import (  # noqa: E402,F401  (numba-cuda's memory-manager interface; placeholders)
    BaseCUDAMemoryManager, HostOnlyCUDAMemoryManager, GetIpcHandleMixin, MemoryPointer, MappedMemory, PinnedMemory,
    MemoryInfo, IpcHandle, set_memory_manager)

# The objects the C++ engine calls into Python with, installed once into
# _cuhost's named hook slots (engine/python/python_hooks.h).
from . import _hooks  # noqa: E402
_hooks.install()



def backend():
    """The backend kernels run on: 'cuda' or 'cpu'."""
    return _cuhost.backend()


def is_available():
    """True when a CUDA driver and at least one GPU are usable."""
    return bool(_cuhost.driver_status()[0])


def detect():
    """Print the devices kernels can run on (or why there are none); True if any.
    On the CPU backend the one device is the CPU, listed with the reason
    there is no CUDA GPU."""
    available, reason, _, _ = _cuhost.driver_status()
    if not available or _cuhost.backend() != "cuda":
        print("Found 1 CUDA devices")
        print("id 0    %s    compute capability 9.0 (cuhost CPU backend)" % _cuhost._device_name(0))
        print("No CUDA GPU is used: %s" % (reason or "the CPU backend was selected"))
        return True
    devs = _cuhost.devices()
    print("Found %d CUDA devices" % len(devs))
    for d in devs:
        print("id %d    %s    compute capability %d.%d" % ((d["id"], d["name"], *tuple(d["compute_capability"]))))
    return True
