"""Run-time configuration, as numba.cuda.config.

Values start from the environment (NUMBA_CUDA_* variables, as in
numba-cuda) and may be changed by scripts at run time; cuhost reads them
when it compiles and links foreign code.
"""
import os as _os


def _env_path(name):
    return _os.environ.get(name, "")


# Colon-separated folders NVRTC searches after the CUDA include directory.
CUDA_NVRTC_EXTRA_SEARCH_PATHS = _env_path("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS")
# The CUDA include directory (NUMBA_CUDA_INCLUDE_PATH wins when set).
CUDA_INCLUDE_PATH = _env_path("NUMBA_CUDA_INCLUDE_PATH") or "/usr/local/cuda/include"
# Warn when a kernel is launched with fewer blocks than would fill the GPU (numba's option; informational).
CUDA_LOW_OCCUPANCY_WARNINGS = int(_os.environ.get("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0"))
# Debug info and optimisation defaults for @cuda.jit.
CUDA_DEBUGINFO_DEFAULT = int(_os.environ.get("NUMBA_CUDA_DEBUGINFO", "0"))
OPT = int(_os.environ.get("NUMBA_OPT", "3"))


# Assignments at run time (numba.cuda.config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = ...)
# are mirrored into the environment, which is where cuhost's C++ side reads
# them when it compiles foreign code.
_ENVIRONMENT_NAMES = {
    "CUDA_NVRTC_EXTRA_SEARCH_PATHS": "NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS",
    "CUDA_INCLUDE_PATH": "NUMBA_CUDA_INCLUDE_PATH",
}


class _Config(type(_os)):
    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        env = _ENVIRONMENT_NAMES.get(name)
        if env is not None:
            if value:
                _os.environ[env] = str(value)
            else:
                _os.environ.pop(env, None)


import sys as _sys  # noqa: E402

_sys.modules[__name__].__class__ = _Config
