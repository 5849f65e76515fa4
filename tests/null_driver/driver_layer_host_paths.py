# The CUDA backend's paths of the host driver layer, run in CI through the
# null driver (null_cuda.cpp): the driver entry points of cuda.bindings.driver
# reach the driver table; contexts are the driver's per-thread stack; device
# memory released by its owners goes to the pending-deallocation queue and
# cuMemFree; a memory-manager plugin receives allocations through the C++
# hook; managed memory comes from cuMemAllocManaged; IPC handles come from
# cuIpcGetMemHandle and open in this process; raw copies and memsets reach
# the driver; the profiler entry points are called.
# stdout: null driver host paths of the driver layer ok
import weakref

import numpy as np
from numba import cuda
from numba.cuda.cudadrv import driver as drv
from cuda.bindings import driver as binding

assert cuda.backend() == "cuda", cuda.backend()
d = drv.driver
assert d.get_device_count() == 1

# Contexts (cuMemGetInfo, as on a real driver, needs a current one).
while d.pop_active_context() is not None:
    pass
ctx = cuda.current_context()
assert d.cuMemGetInfo() == (70 << 30, 80 << 30)
with d.get_active_context() as ac:
    assert int(ac.context_handle) == int(ctx.handle) and ac.devnum == 0
created = d.cuCtxCreate(None, 0, binding.CUdevice(0))
try:
    cuda.current_context()
    raise SystemExit("a non-primary context was accepted")
except RuntimeError as err:
    assert "non-primary CUDA context" in str(err)
d.cuCtxDestroy(created)
assert cuda.current_context() is ctx

# Pending deallocations over cuMemFree.
deallocs = ctx.deallocations
deallocs.clear()
host = np.arange(300.0)
for i in range(3):
    a = cuda.to_device(host)
    assert np.array_equal(a.copy_to_host(), host)
    del a
assert len(deallocs) == 3
with cuda.defer_cleanup():
    deallocs.clear()
    assert len(deallocs) == 3
deallocs.clear()
assert len(deallocs) == 0


# A plugin receives allocations through the C++ hook.
class Plugin(cuda.HostOnlyCUDAMemoryManager):
    def initialize(self):
        self.sizes = getattr(self, "sizes", [])

    def memalloc(self, size):
        self.sizes.append(size)
        pointer = d.cuMemAlloc(size)
        return drv.AutoFreePointer(weakref.proxy(self.context), pointer, size,
                                   finalizer=lambda: d.cuMemFree(pointer))

    def get_memory_info(self):
        return cuda.MemoryInfo(1, 2)

    def get_ipc_handle(self, memory):
        raise NotImplementedError

    @property
    def interface_version(self):
        return 1


builtin = ctx.memory_manager
ctx.memory_manager = Plugin(context=ctx)
try:
    b = cuda.to_device(host)
    assert ctx.memory_manager.sizes == [host.nbytes]
    assert np.array_equal(b.copy_to_host(), host)
    del b
    assert len(deallocs) == 0
finally:
    ctx.memory_manager = builtin

# Managed memory, raw copies and memsets through the driver.
m = cuda.managed_array(16, dtype=np.int32)
m[:] = np.arange(16)
mem = ctx.memalloc(64)
drv.host_to_device(mem, m, 64)
drv.device_memset(mem, 0, 8)
back = np.zeros(16, np.int32)
drv.device_to_host(back, mem, 64)
assert back[2] == 2 and back[0] == 0 and back[15] == 15

# IPC: the handle of an allocation and its opening (one process here).
c = cuda.to_device(np.arange(10, dtype=np.int64))
handle = c.get_ipc_handle()
with handle as opened:
    assert np.array_equal(opened.copy_to_host(), np.arange(10))

with cuda.profiling():
    pass
print("null driver host paths of the driver layer ok")
