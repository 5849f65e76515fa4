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
    from ._cuda_python import *  # noqa: F403
else:
    # NVIDIA's wheel copies its cu12/cu13 module's namespace over its own
    # (__name__, __path__ and __spec__ included); this package keeps its
    # identity and searches NVIDIA's folders first, then its own.
    _own = {k: globals()[k] for k in ("__name__", "__package__", "__spec__", "__file__", "__loader__")}
    _own_path = list(__path__)  # noqa: F405  (the package's own __path__, not from the star import)
    __path__[:] = [_nvidia, *_own_path]  # noqa: F405
    _init = _os.path.join(_nvidia, "__init__.py")
    with open(_init, "rb") as _f:
        exec(compile(_f.read(), _init, "exec"), globals())  # NVIDIA's cuda.core, in this package
    _theirs = [p for p in globals()["__path__"] if p not in _own_path]
    globals().update(_own)
    __path__ = _theirs + [p for p in [_nvidia] if p not in _theirs] + _own_path
    del _f, _init, _own, _own_path, _theirs
from . import config, errors  # noqa: E402,F401  (config: the alias of cuda.config, see _aliases.py)
