"""numba.cuda.core: numba-cuda's compiler core (config, errors, IR, passes).

cuhost's compiler is C++, so of numba-cuda's core only the configuration
(an alias of cuda.config) and the exception classes (core/errors.py) are
real; the IR and pass modules are placeholders (see _unimplemented.py).

Because numba.cuda.core is cuhost's `cuda.core`, this one package is also
cuda-python's `cuda.core` (no name clashes: numba-cuda's core holds modules,
the cuda-python names are classes and functions). Where NVIDIA's cuda.core
is installed (_installed.py), its folder comes first on this package's
__path__ and its __init__ runs here, so its names and submodules
(cuda.core.experimental, cuda.core.utils, ...) are NVIDIA's; otherwise the
few cuda-python names numba-cuda code uses are cuhost's stand-ins
(_cuda_python.py).
"""
import os as _os

from .. import _installed

_nvidia = _installed.nvidia_subpackage("core")
if _nvidia is None:
    from ._cuda_python import *  # noqa: F401,F403
else:
    __path__.insert(0, _nvidia)
    _init = _os.path.join(_nvidia, "__init__.py")
    with open(_init, "rb") as _f:
        exec(compile(_f.read(), _init, "exec"), globals())  # NVIDIA's cuda.core, in this package
    del _f, _init
from . import config, errors  # noqa: E402,F401  (config: the alias of cuda.config, see _aliases.py)
