"""cuhost's `numba` compatibility package.

Inside the cuhost host, `from numba import cuda` always means cuhost's own
`cuda` module, even where a real numba is installed: this package sits
first on sys.path. It provides what numba-cuda scripts import: `numba.cuda`,
`numba.types`, the scalar type names and `numba.core.errors`.
"""
import sys as _sys

import cuda as _cuda
from cuda import types
from cuda.types import *  # noqa: F401,F403

__version__ = "0.0.0+cuhost" + _cuda.__version__

cuda = _cuda
_sys.modules["numba.cuda"] = _cuda
_sys.modules["numba.types"] = types
_sys.modules["numba.core.types"] = types
