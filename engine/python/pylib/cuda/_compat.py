"""numba.cuda._compat: numba-cuda's version checks of NVIDIA's cuda-python `cuda.core`.

cuhost does not use cuda-python, so there is no cuda.core version to compare.
"""
from ._missing import missing as _missing

_missing(globals(), "CUDA_CORE_VERSION CUDA_CORE_GT_0_6 CUDA_CORE_GE_1_0",
        " (cuhost does not use NVIDIA cuda-python's cuda.core)")
