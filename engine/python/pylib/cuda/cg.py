"""numba.cuda.cg: cooperative groups. Inside a kernel, `cuda.cg.this_grid()`
gives the grid group and `.sync()` synchronizes the whole grid; a kernel that
does so is launched cooperatively (typing and lowering live in the engine:
sema/typing/cooperative.cpp, codegen/lowering/cooperative.cpp). On the host
these names only exist to be referenced from kernels."""
from .device_api import _DeviceOnly

__all__ = ["this_grid", "GridGroup"]

this_grid = _DeviceOnly("cg.this_grid")


class GridGroup:
    """The type of `cuda.cg.this_grid()`'s value inside kernels; it has no
    host instances."""

    def __init__(self, *args, **kwargs):
        raise TypeError("cuda.cg.GridGroup exists only inside kernels (cuda.cg.this_grid())")

    sync = _DeviceOnly("cg.GridGroup.sync")
