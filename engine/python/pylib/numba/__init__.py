"""cuhost's `numba` compatibility package.

Inside the cuhost host, `from numba import cuda` always means cuhost's own
`cuda` package, even where a real numba is installed: this package sits
first on sys.path. This package provides what numba-cuda code imports from
numba itself: `numba.cuda`, `numba.types` and the scalar type names,
`numba.core.errors` / `numba.errors`, `numba.extending`, `typeof`,
`vectorize` / `guvectorize` (numba-cuda's CUDA ufuncs), and `njit` / `jit`
(numba/core/dispatcher.py), whose functions run on the host through
cuhost's own CPU compiler and are callable from kernels. These are the
numba-cuda objects: the paths are aliases (cuda/_aliases.py). numba's other
CPU-compiler entry points (cfunc, objmode, prange...) raise
NotImplementedError when used. numba.cuda.HAS_NUMBA is True, as for
numba-cuda beside numba: code that checks it uses these names.

Where numba itself is installed in the environment, this package hands over
to it as it starts: `import numba` is numba (its njit, parallel=True and
prange), and `numba.cuda` stays cuhost's (cuda/_installed.py).
CUHOST_REAL_NUMBA=0 keeps this package instead.
"""
import collections as _collections
import warnings as _warnings

from cuda import _installed

if _installed.has_real_numba():
    _installed.become_real_numba(_installed.real_numba_spec())  # the import yields sys.modules["numba"]
else:
    import cuda as _cuda

    from . import cuda  # noqa: F401  (registers sys.modules["numba.cuda"]: the same package as `cuda`)
    from . import types  # noqa: F401  (numba.types is cuda.types)
    from .types import *  # noqa: F403
    from . import core, errors, extending  # noqa: F401
    from cuda.typing.typeof import typeof  # noqa: F401
    from cuda.np.ufunc.decorators import numba_vectorize as vectorize, numba_guvectorize as guvectorize  # noqa: F401
    from cuda.np.numpy_support import from_dtype  # noqa: F401
    from cuda._missing import missing as _missing
    from cuda.misc.special import literal_unroll  # noqa: F401

    __version__ = "0.0.0+cuhost" + _cuda.__version__
    # numba's version_info, for code that picks behaviour by numba version: the
    # interface this package gives is numba's as numba-cuda 0.30.4 requires it
    # (numba>=0.60: its error messages, HAS_NUMBA paths). __version__ keeps
    # its "0.0.0+cuhost" prefix, the mark that this package is not numba.
    version_info = _collections.namedtuple(
        "version_info", "major minor patch short full string tuple git_revision")(
            0, 60, 0, (0, 60), (0, 60, 0), "0.60.0", ("0", "60", "0"), None)

    _missing(globals(), "generated_jit cfunc objmode prange literally stencil gdb",
             " (cuhost compiles numba.jit in nopython mode only)", prefix="numba")

    def _is_signature(obj):
        return isinstance(obj, (str, tuple, list)) or hasattr(obj, "_cuhost_type")

    def jit(signature_or_function=None, locals=None, cache=False, pipeline_class=None, boundscheck=None, **options):
        """numba.jit in nopython mode (numba's default): the function is compiled
        for the CPU by cuhost's own compiler when called on the host (lazily per
        argument types, or eagerly for the given signatures) and as a device
        function when a kernel calls it. Object mode, parallel=True and other
        targets raise NotImplementedError."""
        # Lazy: the host dispatcher loads when a script first uses jit/njit, not with `import numba`.
        from .core.dispatcher import make_dispatcher

        if locals:
            options["locals"] = locals
        if cache:
            options["cache"] = cache
        if boundscheck is not None:
            options["boundscheck"] = boundscheck
        if pipeline_class is not None:
            options["pipeline_class"] = pipeline_class
        if signature_or_function is None or _is_signature(signature_or_function):
            sigs = signature_or_function
            if sigs is not None and not isinstance(sigs, list):
                sigs = [sigs]

            def wrap(fn):
                return make_dispatcher(fn, sigs, options)

            return wrap
        if not callable(signature_or_function):
            raise TypeError("The decorated object is not a function (got type %s)." % (type(signature_or_function),))
        return make_dispatcher(signature_or_function, None, options)

    def njit(*args, **kws):
        """numba.njit: numba.jit in nopython mode."""
        if "nopython" in kws and not kws["nopython"]:
            _warnings.warn("nopython is set for njit and is ignored", RuntimeWarning)
        kws.pop("nopython", None)
        if "forceobj" in kws:
            _warnings.warn("forceobj is set for njit and is ignored", RuntimeWarning)
            del kws["forceobj"]
        return jit(*args, **kws)
