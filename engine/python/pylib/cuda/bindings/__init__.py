"""cuda-python's cuda.bindings, as far as numba-cuda code reaches into it.

cuhost owns the top-level `cuda` name, so NVIDIA's low-level bindings cannot
be imported inside cuhost; the driver and runtime functions numba-cuda code
imports are placeholders that raise NotImplementedError when used. There is
no __version__: code that reads it learns the bindings are not there.
"""
