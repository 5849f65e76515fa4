"""cuhost's `numba` compatibility package.

Inside the cuhost host, `from numba import cuda` always means cuhost's own
`cuda` module, even where a real numba is installed: this package sits
first on sys.path. It provides what numba-cuda scripts import: `numba.cuda`,
`numba.types`, the scalar type names and `numba.core.errors`.
"""
import pkgutil as _pkgutil
import sys as _sys

# Like numba.cuda (see cuda/__init__.py), numba extends itself with `numba/`
# folders of other sys.path entries, after cuhost's own modules.
__path__ = _pkgutil.extend_path(__path__, __name__)

import cuda as _cuda  # noqa: E402
from cuda import types
from cuda.types import *  # noqa: F401,F403

__version__ = "0.0.0+cuhost" + _cuda.__version__

cuda = _cuda
_sys.modules["numba.cuda"] = _cuda
_sys.modules["numba.types"] = types
_sys.modules["numba.core.types"] = types
