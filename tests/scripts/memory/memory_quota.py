# The device-memory quota (--memory-quota 4M): device arrays, managed arrays,
# raw cuMemAlloc through the driver bindings and the memory of an external
# memory manager count against it, as requested; an allocation past it is
# numba-cuda's out-of-memory error (CudaAPIError, CUDA_ERROR_OUT_OF_MEMORY)
# naming the quota; memory returns to it when really freed, also through the
# deferred-deallocation queue (released and retried on a refusal, not inside
# defer_cleanup) and by the memory manager; pinned host memory does not
# count. get_memory_info() reports the quota. Kernels within the quota give
# NumPy's results (on the null driver, which runs no kernel, only the host
# path is checked).
# cuhost-args: --memory-quota 4M
# stdout: memory quota ok
import ctypes
import weakref

import numpy as np
from numba import cuda
from numba.cuda.cudadrv import driver as drv
from numba.cuda.cudadrv.driver import CudaAPIError

MiB = 1 << 20
QUOTA = 4 * MiB


def on_null_driver():
    if cuda.backend() != "cuda":
        return False
    try:
        return hasattr(ctypes.CDLL("libcuda.so.1"), "cuhostNullFailedCalls")
    except OSError:
        return False


RUNS_KERNELS = not on_null_driver()
ctx = cuda.current_context()
builtin = ctx.memory_manager


def in_use():
    free, total = builtin.get_memory_info()
    assert total == QUOTA, total
    return QUOTA - free


def expect_refusal(allocate, nbytes, used, call="cuMemAlloc"):
    try:
        allocate()
    except CudaAPIError as e:
        expected = ("%s failed: CUDA_ERROR_OUT_OF_MEMORY allocating %d bytes: past the device-memory quota of "
                    "4 MiB (--memory-quota), with %d bytes in use" % (call, nbytes, used))
        assert str(e) == expected, (str(e), expected)
    else:
        raise AssertionError("allocating %d bytes past the quota succeeded" % nbytes)
    assert in_use() == used, (in_use(), used)


@cuda.jit
def scale(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * 2 + 1


rng = np.random.default_rng(41)
assert in_use() == 0
x = rng.standard_normal(3 * MiB // 4).astype(np.float32)  # 3 MiB
d_x = cuda.to_device(x)
assert in_use() == 3 * MiB
expect_refusal(lambda: cuda.device_array(2 * MiB, dtype=np.uint8), 2 * MiB, 3 * MiB)

# Up to the quota exactly, and a kernel over it.
d_out = cuda.device_array(MiB // 4, dtype=np.float32)
assert in_use() == QUOTA
scale[(d_out.size + 255) // 256, 256](d_out, d_x)
if RUNS_KERNELS:
    np.testing.assert_array_equal(d_out.copy_to_host(), x[:d_out.size] * 2 + 1)
expect_refusal(lambda: cuda.device_array(1, dtype=np.uint8), 1, QUOTA)

# Freed memory waits in the deallocation queue and still counts; a refusal
# releases the queue and tries again, except while cleanup is deferred.
ctx.deallocations.clear()
del d_x
assert len(ctx.deallocations) == 1 and in_use() == QUOTA
with cuda.defer_cleanup():
    expect_refusal(lambda: cuda.device_array(3 * MiB, dtype=np.uint8), 3 * MiB, QUOTA)
d_y = cuda.device_array(3 * MiB, dtype=np.uint8)
assert len(ctx.deallocations) == 0 and in_use() == QUOTA
del d_y, d_out
ctx.deallocations.clear()
assert in_use() == 0

# Managed memory counts; pinned host memory does not.
m = cuda.managed_array(3 * MiB // 8, dtype=np.float64)
assert in_use() == 3 * MiB
expect_refusal(lambda: cuda.managed_array(2 * MiB, dtype=np.uint8), 2 * MiB, 3 * MiB, call="cuMemAllocManaged")
p = cuda.pinned_array(8 * MiB, dtype=np.uint8)
p[:] = 7
assert in_use() == 3 * MiB
del m, p
ctx.deallocations.clear()
assert in_use() == 0

# Raw driver allocations: refused with the driver's own error past the quota.
raw = drv.driver.cuMemAlloc(3 * MiB)
assert in_use() == 3 * MiB
try:
    drv.driver.cuMemAlloc(2 * MiB)
    raise AssertionError("a raw allocation past the quota succeeded")
except CudaAPIError as e:
    assert e.args[1] == "Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY", e.args
drv.driver.cuMemFree(raw)
assert in_use() == 0


# An external memory manager (numba-cuda's EMM plugin) that allocates through
# the driver: its memory counts once, as the arrays asked for it, and goes
# back to the quota when the plugin frees it.
class DriverPlugin(cuda.HostOnlyCUDAMemoryManager):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.live = {}

    def initialize(self):
        pass

    def memalloc(self, size):
        pointer = drv.driver.cuMemAlloc(size)
        live = self.live
        live[int(pointer)] = size

        def release():
            del live[int(pointer)]
            drv.driver.cuMemFree(pointer)

        return drv.AutoFreePointer(weakref.proxy(self.context), pointer, size, finalizer=release)

    def get_memory_info(self):
        return cuda.MemoryInfo(free=0, total=0)

    def get_ipc_handle(self, memory):
        raise NotImplementedError

    @property
    def interface_version(self):
        return 1


plugin = DriverPlugin(context=ctx)
ctx.memory_manager = plugin
try:
    z = rng.standard_normal(3 * MiB // 8)
    d_z = cuda.to_device(z)
    assert in_use() == 3 * MiB and list(plugin.live.values()) == [3 * MiB]
    expect_refusal(lambda: cuda.device_array(2 * MiB, dtype=np.uint8), 2 * MiB, 3 * MiB)
    if RUNS_KERNELS:
        np.testing.assert_array_equal(d_z.copy_to_host(), z)
    del d_z
    assert not plugin.live and in_use() == 0
finally:
    ctx.memory_manager = builtin

# The whole quota is usable again.
big = cuda.device_array(QUOTA, dtype=np.uint8)
assert in_use() == QUOTA
del big
ctx.deallocations.clear()
assert in_use() == 0
print("memory quota ok")
