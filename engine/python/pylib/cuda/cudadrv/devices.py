"""numba.cuda.cudadrv.devices: the device list and the current context."""
from ._contexts import close, current_context as get_context, gpus, require_context  # noqa: F401


def reset():
    """numba's devices.reset: releases every context's resources (modules,
    pending deallocations, the memory manager's) after outstanding work
    finishes, and leaves this thread with no current context; the host keeps
    the contexts."""

    close()
