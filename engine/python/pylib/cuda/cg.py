"""numba.cuda.cg: cooperative groups. Inside a kernel, `cuda.cg.this_grid()`
gives the grid group and `.sync()` synchronizes the whole grid; a kernel that
does so is launched cooperatively (typing and lowering live in the engine:
sema/typing/cooperative.cpp, codegen/lowering/cooperative.cpp). On the host
these names only exist to be referenced from kernels."""
from .device_api import _DeviceOnly

__all__ = ["this_grid", "GridGroup", "this_cluster", "ClusterGroup"]

this_grid = _DeviceOnly("cg.this_grid")
this_cluster = _DeviceOnly("cg.this_cluster")


class GridGroup:
    """The type of `cuda.cg.this_grid()`'s value inside kernels; it has no
    host instances."""

    def __init__(self, *args, **kwargs):
        raise TypeError("cuda.cg.GridGroup exists only inside kernels (cuda.cg.this_grid())")

    sync = _DeviceOnly("cg.GridGroup.sync")


class ClusterGroup:
    """The type of `cuda.cg.this_cluster()`'s value inside kernels (a cuhost
    extension, docs/HOPPER.md): the thread-block cluster of a kernel jitted
    with cluster_dim=; it has no host instances."""

    def __init__(self, *args, **kwargs):
        raise TypeError("cuda.cg.ClusterGroup exists only inside kernels (cuda.cg.this_cluster())")

    sync = _DeviceOnly("cg.ClusterGroup.sync")
    block_rank = _DeviceOnly("cg.ClusterGroup.block_rank")
    num_blocks = _DeviceOnly("cg.ClusterGroup.num_blocks")
    map_shared_rank = _DeviceOnly("cg.ClusterGroup.map_shared_rank")
