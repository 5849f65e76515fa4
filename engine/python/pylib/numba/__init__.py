"""cuhost's `numba` compatibility package.

Inside the cuhost host, `from numba import cuda` always means cuhost's own
`cuda` package, even where a real numba is installed: this package sits
first on sys.path. This package provides what numba-cuda code imports from
numba itself: `numba.cuda`, `numba.types` and the scalar type names,
`numba.core.errors` / `numba.errors`, `numba.extending`, `typeof`,
`vectorize` / `guvectorize` (numba-cuda's CUDA ufuncs) and `njit`, whose
functions kernels may call. These are the numba-cuda objects: the paths are
aliases (cuda/_aliases.py). There is no base numba CPU compiler in cuhost:
its entry points (and calling an njit function on the host) raise
NotImplementedError when used. numba.cuda.HAS_NUMBA is True, as for
numba-cuda beside numba: code that checks it uses these names.
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

_missing(globals(), "jit generated_jit cfunc objmode prange literally stencil gdb",
         " (cuhost has no base numba CPU compiler)", prefix="numba")


class _DeviceOnlyFunction:
    """What numba.njit makes inside cuhost: kernels may call it (it is compiled
    as a device function, as numba-cuda compiles @njit functions kernels
    call); calling it on the host raises, as there is no CPU compiler."""

    def __init__(self, py_func):
        import functools

        self.py_func = py_func
        functools.update_wrapper(self, py_func)

    def __call__(self, *args, **kwargs):
        raise NotImplementedError("%s is a numba.njit function: cuhost has no base numba CPU compiler, "
                                  "so it runs only inside kernels"
                                  % (getattr(self.py_func, "__qualname__", repr(self.py_func)),))

    def __repr__(self):
        return "<numba.njit function %s>" % (self.py_func.__qualname__,)


def njit(*args, **kws):
    """numba.njit: the function becomes callable from kernels (not on the host)."""
    from cuda._ext import registry, resolve

    def wrap(fn):
        obj = _DeviceOnlyFunction(fn)
        registry.add_callable(obj, resolve.JitableCandidate(fn))
        return obj

    if len(args) == 1 and callable(args[0]) and not kws:
        return wrap(args[0])
    return wrap
