"""numba.cuda.cudadrv.nvrtc: NVRTC, the CUDA C++ compiler of `.cu` link items.

cuhost compiles CUDA C++ with NVRTC in C++ (engine/cuda/nvrtc.cpp), which
reads the same search paths as numba-cuda; numba-cuda's Python-level
entry points to NVRTC are not implemented yet.
"""
from .. import config as _config
from ..utils import _readenv
from .._missing import missing as _missing
from .error import NvrtcError  # noqa: F401
from .._targets import find_closest_arch, get_lowest_supported_cc, get_supported_ccs  # noqa: F401

# Colon-separated folders searched for #includes after the CUDA include directory.
NVRTC_EXTRA_SEARCH_PATHS = _readenv("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS", str, "") or getattr(
    _config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", "")

_missing(globals(), """
    compile get_arch_option _get_nvrtc_version
""")
