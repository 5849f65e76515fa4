"""numba.core.target_extension, as far as cuhost has targets: "cpu" is the
host dispatcher of numba.njit (numba/core/dispatcher.py); "cuda" is
cuda.jit's dispatcher. Target registration (numba's extension API for new
hardware) is not supported."""
from cuda._missing import missing as _missing
from cuda.dispatcher import CUDADispatcher

from ._cpu_target import CPUTargetDescriptor  # noqa: F401  (numba's path for it)
from .dispatcher import Dispatcher

_DISPATCHERS = {"cpu": Dispatcher, "cuda": CUDADispatcher}


def resolve_dispatcher_from_str(target_str):
    """The dispatcher class of a target ("cpu" or "cuda")."""
    try:
        return _DISPATCHERS[target_str]
    except KeyError:
        raise ValueError("Unknown target: %s" % (target_str,)) from None


_missing(globals(), "target_registry dispatcher_registry target_override get_local_target resolve_target_str "
         "Target Generic CPU GPU CUDA TargetDescriptor JitDecorator", prefix="numba.core.target_extension")
