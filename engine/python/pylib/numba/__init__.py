"""cuhost's `numba` compatibility package.

Inside the cuhost host, `from numba import cuda` always means cuhost's own
`cuda` package, even where a real numba is installed: this package sits
first on sys.path. There is no base numba (no CPU compiler) in cuhost, so
numba.cuda.HAS_NUMBA is False. This package provides what numba-cuda code
imports from numba itself: `numba.cuda`, `numba.types` and the scalar type
names, `numba.core.errors` / `numba.errors`, `numba.extending`, `typeof`,
and `vectorize` / `guvectorize` (numba-cuda's CUDA ufuncs). These are the
numba-cuda objects: the paths are aliases (cuda/_aliases.py). numba's CPU
compiler entry points raise NotImplementedError when used.
"""
import cuda as _cuda

from . import cuda  # noqa: F401  (registers sys.modules["numba.cuda"]: the same package as `cuda`)
from . import types  # noqa: F401  (numba.types is cuda.types)
from .types import *  # noqa: F401,F403
from . import core, errors, extending  # noqa: F401
from cuda.typing.typeof import typeof  # noqa: F401
from cuda.np.ufunc.decorators import numba_vectorize as vectorize, numba_guvectorize as guvectorize  # noqa: F401
from cuda.np.numpy_support import from_dtype  # noqa: F401
from cuda._missing import missing as _missing
from cuda.misc.special import literal_unroll  # noqa: F401

__version__ = "0.0.0+cuhost" + _cuda.__version__

_missing(globals(), "njit jit generated_jit cfunc objmode prange literally stencil gdb",
         " (cuhost has no base numba CPU compiler: numba.cuda.HAS_NUMBA is False)", prefix="numba")
