"""The names of NVIDIA's cuda-python `cuda.core` that numba-cuda code imports.

cuda-python cannot be imported inside cuhost (cuhost's `cuda` package owns
the name), and cuhost does not drive the GPU through it. Where cuhost
raises an error of the same meaning, the name is cuhost's class (see
_utils/cuda_utils.py); everything else is a placeholder that raises
NotImplementedError when used.
"""
from .._missing import missing as _missing

__all__ = ["Buffer", "Device", "LaunchConfig", "Linker", "LinkerOptions", "ObjectCode", "Program", "ProgramOptions",
           "Stream", "launch"]

_NOTE = " (NVIDIA cuda-python's cuda.core; cuhost does not drive the GPU through cuda-python)"
_missing(globals(), " ".join(__all__), _NOTE, prefix="cuda.core")
