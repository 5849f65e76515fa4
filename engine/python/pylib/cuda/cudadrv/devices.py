"""numba.cuda.cudadrv.devices: the device list and the current context."""
from ..api import current_context as get_context, gpus, require_context  # noqa: F401
from .._missing import missing as _missing

_missing(globals(), "reset")
