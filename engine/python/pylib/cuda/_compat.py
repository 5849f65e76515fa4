"""numba.cuda._compat: numba-cuda's version checks of cuda-python's `cuda.core`.

cuhost's `cuda.core` (core/_cuda_python.py) follows cuda.core 1.0's API,
so the checks are answered for that version.
"""
from .core._cuda_python import __version__ as _core_version

CUDA_CORE_VERSION = tuple(int(p) for p in _core_version.split("."))
CUDA_CORE_GT_0_6 = CUDA_CORE_VERSION >= (0, 6, 0)
CUDA_CORE_GE_1_0 = CUDA_CORE_VERSION >= (1, 0, 0)
