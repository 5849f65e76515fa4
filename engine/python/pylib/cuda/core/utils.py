"""cuda-python's cuda.core.utils, as far as numba-cuda code reaches into it."""
from .._missing import missing as _missing

_missing(globals(), "StridedMemoryView args_viewable_as_strided_memory",
        " (NVIDIA cuda-python's cuda.core.utils; cuhost does not use cuda-python)", prefix="cuda.core.utils")
