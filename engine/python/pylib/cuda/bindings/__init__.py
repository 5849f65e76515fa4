"""cuda-python's cuda.bindings, as far as numba-cuda code reaches into it.

cuhost owns the top-level `cuda` name, so NVIDIA's cuda-python cannot be
imported inside cuhost; this package is cuhost's own implementation of the
parts numba-cuda code uses: `driver` (the driver entry points, on the CPU
backend answered for the CPU device) and `runtime` (enums). `__version__`
is that of the CUDA toolkit cuhost is built with, whose driver API
(cuCtxCreate's parameters, ...) the functions follow.
"""
import _cuhost as _cuhost

__version__ = _cuhost.versions()["nvrtc"] + ".0"
