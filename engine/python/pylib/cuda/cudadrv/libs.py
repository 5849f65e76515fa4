"""numba.cuda.cudadrv.libs: where the CUDA toolkit's files are.

The include directory comes from numba's configuration (NUMBA_CUDA_INCLUDE_PATH),
as in numba-cuda. cuhost finds and links libdevice and the CUDA libraries
itself, in C++; numba-cuda's functions that open them are not implemented.
"""
import os as _os

from .. import config as _config
from .._missing import missing as _missing


def get_cuda_include_dir():
    """The CUDA include directory NVRTC compiles `.cu` link items with."""
    return _config.CUDA_INCLUDE_PATH


def check_cuda_include_dir(path):
    """Raise FileNotFoundError unless `path` holds cuda_runtime.h."""
    if not _os.path.exists(_os.path.join(path, "cuda_runtime.h")):
        raise FileNotFoundError("Failed to find cuda_runtime.h in %s" % path)


_missing(globals(), "get_libdevice open_libdevice get_cudalib open_cudalib check_static_lib test")
