# External memory-manager plugins (numba-cuda's EMM interface): a plugin's
# memalloc receives every device allocation of its context (device arrays,
# to_device, the device copies of kernel arguments), after initialize(); the MemoryPointer it
# returns is what device arrays use (gpu_data), and its finalizer runs when
# the last user lets go; reset(), get_memory_info() and get_ipc_handle() are
# the plugin's; the interface version is checked; set_memory_manager applies
# to contexts made after cuda.close(). The plugin here allocates through the
# driver (cuMemAlloc/cuMemFree), so it works on both backends.
# stdout: memory managers ok
import weakref

import numpy as np
from numba import cuda
from numba.cuda.cudadrv import driver as drv


class DriverPlugin(cuda.HostOnlyCUDAMemoryManager):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.live = {}
        self.calls = []

    def initialize(self):
        self.calls.append("initialize")

    def memalloc(self, size):
        assert self.calls and self.calls[0] == "initialize", self.calls
        self.calls.append(("memalloc", size))
        pointer = drv.driver.cuMemAlloc(size)
        address = int(pointer)
        live = self.live
        live[address] = size

        def release():
            del live[address]
            drv.driver.cuMemFree(pointer)

        return drv.AutoFreePointer(weakref.proxy(self.context), pointer, size, finalizer=release)

    def get_memory_info(self):
        return cuda.MemoryInfo(free=sum(self.live.values()), total=1 << 30)

    def get_ipc_handle(self, memory):
        return ("handle of", memory.device_pointer_value)

    def reset(self):
        super().reset()
        self.calls.append("reset")

    @property
    def interface_version(self):
        return 1


ctx = cuda.current_context()
ctx.reset()
builtin = ctx.memory_manager
plugin = DriverPlugin(context=ctx)
ctx.memory_manager = plugin
try:
    rng = np.random.default_rng(2)
    host = rng.standard_normal((40, 30))
    d = cuda.to_device(host)
    assert ("memalloc", host.nbytes) in plugin.calls
    assert d.device_pointer in plugin.live and d.gpu_data.device_pointer_value == d.device_pointer
    assert np.array_equal(d.copy_to_host(), host)

    @cuda.jit
    def double(a):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            a[i, j] *= 2

    double[(5, 4), (8, 8)](d)
    assert np.array_equal(d.copy_to_host(), host * 2)
    view = d[5:, ::3]
    address = d.device_pointer
    del d
    assert address in plugin.live  # the view holds the memory
    assert np.array_equal(view.copy_to_host(), host[5:, ::3] * 2)
    del view
    assert address not in plugin.live  # released at once, not queued

    # Host arrays passed to kernels get their device copies from the plugin too.
    before = len(plugin.calls)
    out = np.zeros(64)

    @cuda.jit
    def fill(a):
        a[cuda.grid(1)] = 7

    fill[2, 32](out)
    assert (out == 7).all() and not plugin.live
    if cuda.backend() == "cuda":  # the CPU backend runs on host arrays in place
        assert len(plugin.calls) > before

    assert ctx.get_memory_info() == (0, 1 << 30)
    dd = cuda.device_array(16)
    assert ctx.get_memory_info().free == 128
    handle = dd.get_ipc_handle()
    assert handle._ipc_handle == ("handle of", dd.device_pointer)
    ctx.reset()
    assert plugin.calls[-1] == "reset"
finally:
    ctx.memory_manager = builtin

# Back on cuhost's allocator: nothing reaches the plugin any more.
count = len(plugin.calls)
cuda.device_array(10)
assert len(plugin.calls) == count


class Version2(DriverPlugin):
    @property
    def interface_version(self):
        return 2


try:
    cuda.set_memory_manager(Version2)
    raise SystemExit("a plugin of interface version 2 was accepted")
except RuntimeError as err:
    assert str(err) == "EMM Plugin interface has version 2 - version 1 required", err

# set_memory_manager: contexts made after cuda.close() get the plugin.
from numba.cuda.cudadrv import _memory_managers  # noqa: E402

cuda.set_memory_manager(DriverPlugin)
try:
    cuda.close()
    ctx = cuda.current_context()
    assert isinstance(ctx.memory_manager, DriverPlugin)
    a = cuda.device_array(5)
    assert a.device_pointer in ctx.memory_manager.live
    del a
finally:
    _memory_managers._memory_manager = None
    cuda.close()
assert type(cuda.current_context().memory_manager).__name__ == "NumbaCUDAMemoryManager"
print("memory managers ok")
