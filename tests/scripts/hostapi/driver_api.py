# numba-cuda's driver layer: driver.driver calls the driver entry points
# (cuda.bindings.driver: (CUresult, outputs...)) and raises CudaAPIError with
# numba's code and message; the device's primary context and the per-thread
# context stack (push/pop, a non-primary context refused by
# current_context(), `with cuda.gpus[0]` restoring the previous context);
# device UUID and version; streams made through the driver used by cuhost.
# stdout: driver api ok
# sanitizer-expects: CUDA_ERROR_INVALID_DEVICE cuDeviceGet
import re

import numpy as np
from numba import cuda
from numba.cuda.cudadrv import driver as drv
from numba.cuda.cudadrv.error import CudaDriverError
from cuda.bindings import driver as binding

d = drv.driver
assert d.is_available and cuda.cuda_error() is None
assert d.get_device_count() == len(cuda.gpus)
major, minor = d.get_version()
assert major >= 12 and drv.get_version() == (major, minor)
cuda.current_context()  # the driver's memory queries need a current context, as on a real GPU
free, total = d.cuMemGetInfo()
assert 0 < free <= total

# The bindings' convention: (CUresult, outputs...), no exception.
result, version = binding.cuDriverGetVersion()
assert result == binding.CUresult.CUDA_SUCCESS and version // 1000 == major
result, _ = binding.cuDeviceGet(len(cuda.gpus))
assert result == binding.CUresult.CUDA_ERROR_INVALID_DEVICE
try:
    d.cuDeviceGet(len(cuda.gpus))
    raise SystemExit("an invalid device was accepted")
except drv.CudaAPIError as err:
    assert isinstance(err, CudaDriverError)
    assert err.code == binding.CUresult.CUDA_ERROR_INVALID_DEVICE
    assert err.msg == "Call to cuDeviceGet results in CUDA_ERROR_INVALID_DEVICE", err.msg
    assert str(err) == "[101] Call to cuDeviceGet results in CUDA_ERROR_INVALID_DEVICE", str(err)
try:
    d.cuNoSuchFunction
    raise SystemExit("an unknown entry point resolved")
except AttributeError:
    pass

# Contexts: the primary context, pushed by current_context() when none is current.
while d.pop_active_context() is not None:
    pass
with d.get_active_context() as ac:
    assert not ac and ac.context_handle is None and ac.devnum is None
ctx = cuda.current_context()
with d.get_active_context() as ac:
    assert int(ac.context_handle) == int(ctx.handle) and ac.devnum == ctx.device.id
assert cuda.current_context() is ctx
with cuda.gpus[0]:
    assert cuda.gpus.current.id == 0
with d.get_active_context() as ac:
    assert int(ac.context_handle) == int(ctx.handle)  # restored after the block
while d.pop_active_context() is not None:
    pass
with cuda.gpus[0]:
    pass
with d.get_active_context() as ac:
    assert ac.context_handle is None  # nothing left current

# A context that is not a device's primary context is refused.
created = d.cuCtxCreate(None, 0, binding.CUdevice(0))
try:
    cuda.current_context()
    raise SystemExit("a non-primary context was accepted")
except RuntimeError as err:
    assert str(err).startswith("Numba cannot operate on non-primary CUDA context"), err
finally:
    d.cuCtxDestroy(created)

# An attached primary context is the one cuhost uses; kernels run in it.
handle = d.cuDevicePrimaryCtxRetain(binding.CUdevice(0))
attached = drv.Context(binding.CUdevice(0), handle)
attached.push()
try:
    assert int(cuda.current_context().handle) == int(handle)

    @cuda.jit
    def iota(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = i

    a = cuda.device_array(50, dtype=np.int32)
    iota[2, 32](a)
    assert (a.copy_to_host() == np.arange(50)).all()
finally:
    attached.pop()
    d.cuDevicePrimaryCtxRelease(binding.CUdevice(0))

# Device identity.
dev = cuda.get_current_device()
assert re.fullmatch(r"GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", dev.uuid), dev.uuid
assert dev.uuid == cuda.gpus[0].uuid
assert set(dev.get_device_identity()) == {"pci_domain_id", "pci_bus_id", "pci_device_id"}

# A stream the driver made, used as an external stream by cuhost.
ctx = cuda.current_context()  # current again after the pop above: the driver creates streams in it
raw = d.cuStreamCreate(0)
s = ctx.create_external_stream(int(raw))
assert s.external and int(s) == int(raw) and "External CUDA stream" in repr(s)
x = cuda.to_device(np.arange(10.0), stream=s)
s.synchronize()
assert (x.copy_to_host() == np.arange(10.0)).all()
d.cuStreamDestroy(raw)

# Raw copies through the driver.
m = cuda.current_context().memalloc(80)
src = np.arange(10.0)
d.cuMemcpyHtoD(m.device_pointer, src.ctypes.data, 80)
back = np.zeros(10)
d.cuMemcpyDtoH(back.ctypes.data, m.device_pointer, 80)
assert (back == src).all()
# numba's module-level names: the error map, IPC support, the function class;
# the driver loader of numba-cuda has no counterpart (cuhost loads it in C++).
assert drv.ERROR_MAP[0] == "CUDA_SUCCESS" and drv.ERROR_MAP[801] == "CUDA_ERROR_NOT_SUPPORTED"
assert drv.SUPPORTS_IPC and drv.Function is drv.CudaPythonFunction
try:
    drv.find_driver()
    raise SystemExit("find_driver claimed")
except NotImplementedError as err:
    assert "find_driver" in str(err) and "in C++" in str(err), err
print("driver api ok")
