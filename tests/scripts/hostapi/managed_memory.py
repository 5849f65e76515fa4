# Managed (unified) memory: cuda.managed_array is a NumPy array the host and
# kernels use in place, with no copies (cuMemAllocManaged on the GPU; host
# memory on the CPU backend, where the host is the device), checked against
# NumPy on random data; Context.memallocmanaged gives a buffer NumPy can view
# and the driver functions can fill; the CUDA Array Interface names the
# array's stream.
# stdout: managed memory ok
# compute-sanitizer's memcheck takes a kernel's reads of managed memory
# attached to the host (attach_global=False) for out-of-bounds reads and
# stops the kernel, though CUDA allows them on a device with concurrent
# managed access: it does so for the same access in CUDA C
# (scripts/gpu/probes/managed_attach_host.cu), so this test fails under it.
# sanitizer-expects: Invalid __global__ read
# sanitizer-expects: CUDA_ERROR_LAUNCH_FAILED
import numpy as np
from numba import cuda
from numba.cuda.cudadrv import driver

rng = np.random.default_rng(8)
for attach_global in (True, False):
    m = cuda.managed_array((37, 5), dtype=np.float32, attach_global=attach_global)
    assert isinstance(m, np.ndarray) and isinstance(m, cuda.ManagedNDArray) and m.shape == (37, 5)
    values = rng.standard_normal(m.shape).astype(np.float32)
    m[...] = values

    @cuda.jit
    def scale(a, k):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            a[i, j] = a[i, j] * k + i

    scale[(5, 1), (8, 8)](m, np.float32(3))
    cuda.synchronize()
    expect = values * np.float32(3) + np.arange(37, dtype=np.float32)[:, None]
    assert np.allclose(m, expect), attach_global
    face = m.__cuda_array_interface__
    assert face["data"][0] == m.ctypes.data and face["stream"] is None
    assert driver.is_device_memory(m) and driver.device_memory_size(m) == m.nbytes

s = cuda.stream()
ms = cuda.managed_array(10, stream=s)
assert ms.__cuda_array_interface__["stream"] == int(s.handle)

ctx = cuda.current_context()
mem = ctx.memallocmanaged(256)
assert driver.is_device_memory(mem) and mem.size == 256
view = np.ndarray(64, dtype=np.uint32, buffer=mem)
driver.device_memset(mem, 0x5A, 256)
ctx.synchronize()
assert (view == 0x5A5A5A5A).all()
view[:] = np.arange(64, dtype=np.uint32)
back = np.zeros(64, dtype=np.uint32)
driver.device_to_host(back, mem, 256)
assert (back == np.arange(64)).all()
print("managed memory ok")
