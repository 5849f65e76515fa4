"""numba.cuda.core: numba-cuda's compiler core (config, errors, IR, passes).

cuhost's compiler is C++, so of numba-cuda's core only the configuration
(an alias of cuda.config) and the exception classes (core/errors.py) are
real; the IR and pass modules are placeholders (see _unimplemented.py).

Because cuhost owns the top-level `cuda` name, `cuda.core` is this package,
not NVIDIA's cuda-python `cuda.core`. The few cuda-python names that
numba-cuda code imports from `cuda.core` are given here too, from
_cuda_python.py (no name clashes: numba-cuda's core holds modules, the
cuda-python names are classes and functions).
"""
from ._cuda_python import *  # noqa: F401,F403
from . import config, errors  # noqa: E402,F401  (config: the alias of cuda.config, see _aliases.py)
