"""cuda-python's cuda.bindings, as far as numba-cuda code reaches into it.

cuhost owns the top-level `cuda` name, so NVIDIA's cuda-python cannot be
imported inside cuhost; this package is cuhost's own implementation of the
parts numba-cuda code uses: `driver` (the driver entry points, on the CPU
backend answered for the CPU device) and `runtime` (enums). `__version__`
is that of the CUDA toolkit cuhost is built with, whose driver API
(cuCtxCreate's parameters, ...) the functions follow. It is asked for at
its first use: NVRTC is loaded only when something needs it.
"""
import _cuhost as _cuhost


def __getattr__(name):
    if name == "__version__":
        version = _cuhost.versions()["nvrtc"] + ".0"
        globals()["__version__"] = version
        return version
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
