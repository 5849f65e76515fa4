# Raw device memory (numba-cuda's Context.memalloc and driver copies) over
# cuhost's allocations: round trips of random bytes, memset, views with their
# reference counts, host extents, pinning of host memory and managed memory.
# backends: cuda
# stdout: raw memory ok
import ctypes

import numpy as np
from numba import cuda
from numba.cuda.cudadrv import devicearray, devices, driver

rng = np.random.default_rng(7)
ctx = devices.get_context()
src = rng.integers(0, 2**32, 257, dtype=np.uint32)
mem = ctx.memalloc(src.nbytes)
assert driver.is_device_memory(mem) and isinstance(mem.device_ctypes_pointer, ctypes.c_size_t)
driver.host_to_device(mem, src, src.nbytes)
back = np.zeros_like(src)
driver.device_to_host(back, mem, src.nbytes)
assert (back == src).all()

other = ctx.memalloc(src.nbytes)
driver.device_to_device(other, mem, src.nbytes)
driver.device_memset(other, 0x5A, 16)
driver.device_to_host(back, other, src.nbytes)
assert (back[:4] == 0x5A5A5A5A).all() and (back[4:] == src[4:]).all()

view = mem.view(8)
assert view.owner is mem and mem.refct == 2 and view.handle == mem.handle + 8
part = np.zeros(4, np.uint32)
driver.device_to_host(part, view, part.nbytes)
assert (part == src[2:6]).all()
del view
assert mem.refct == 1

f = np.asfortranarray(rng.random((3, 5)))
start, end = driver.host_memory_extents(f)
assert start == f.ctypes.data and end - start == f.nbytes == driver.host_memory_size(f)
assert driver.host_memory_size(ctypes.c_double(1.0)) == 8

d = cuda.to_device(rng.random((4, 6)))
assert devicearray.is_contiguous(d) and not devicearray.is_contiguous(d[:, ::2])
# Pinning existing host memory and managed memory.
pinned = ctx.mempin(src, src.ctypes.data, src.nbytes, mapped=True)
assert driver.is_device_memory(pinned) and pinned.device_ctypes_pointer.value == src.ctypes.data
back = np.zeros_like(src)
driver.device_to_host(back, pinned, src.nbytes)
assert (back == src).all()
del pinned
managed = ctx.memallocmanaged(64)
view = np.ndarray(16, np.uint32, buffer=managed)
driver.device_memset(managed, 0x11, 64)
ctx.synchronize()
assert (view == 0x11111111).all()
del view, managed
ctx.reset()
print("raw memory ok")
