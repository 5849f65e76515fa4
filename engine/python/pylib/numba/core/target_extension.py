"""numba.core.target_extension, as far as cuhost has targets: "cpu" is the
host dispatcher of numba.njit (numba/core/dispatcher.py); "cuda" is
cuda.jit's dispatcher. Target registration (numba's extension API for new
hardware) is not supported."""
from cuda._missing import missing as _missing


class CPUTargetDescriptor:
    """The target descriptor of numba's CPU dispatchers (its name only: cuhost
    compiles host calls with its own CPU compiler)."""

    def __init__(self, name="cpu"):
        self._target_name = name


def _dispatchers():
    from cuda.dispatcher import CUDADispatcher
    from .dispatcher import Dispatcher

    return {"cpu": Dispatcher, "cuda": CUDADispatcher}


def resolve_dispatcher_from_str(target_str):
    """The dispatcher class of a target ("cpu" or "cuda")."""
    try:
        return _dispatchers()[target_str]
    except KeyError:
        raise ValueError("Unknown target: %s" % (target_str,)) from None


_missing(globals(), "target_registry dispatcher_registry target_override get_local_target resolve_target_str "
         "Target Generic CPU GPU CUDA TargetDescriptor JitDecorator", prefix="numba.core.target_extension")
