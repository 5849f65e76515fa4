"""numba.cuda.cudadrv.devices: the device list and the current context."""
from ..api import current_context as get_context, gpus, require_context  # noqa: F401


def reset():
    """numba's devices.reset: every context's kernel modules are unloaded
    (after outstanding work finishes); the host keeps the contexts."""
    from ..api import close

    close()
