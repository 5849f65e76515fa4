"""numba.cuda.libdevice: CUDA's libdevice math library, callable in kernels.

`cuda.libdevice.sinf(x)` (or `from numba.cuda.libdevice import sinf`) calls
libdevice's __nv_sinf, on the GPU and (libdevice compiled for the host) on
the CPU backend. Every function of numba.cuda.libdevicefuncs.functions is
here, under its name without "__nv_"; functions with pointer parameters
return a tuple instead (`s, c = sincos(x)`, `frac, exp = frexp(x)`).
These are device-only objects: calling one on the host raises TypeError,
as in numba-cuda.
"""
from .device_api import _DeviceOnly
from .libdevicefuncs import functions as _functions

for _name in _functions:
    globals()[_name[5:]] = _DeviceOnly("libdevice." + _name[5:])
del _name
