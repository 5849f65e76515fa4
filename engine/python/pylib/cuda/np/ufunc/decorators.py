"""The @vectorize and @guvectorize decorators (numba.cuda.np.ufunc.decorators).

Forms: ``@vectorize(sigs, target="cuda")``, ``@vectorize("f8(f8)")``,
``@vectorize`` / ``@vectorize()`` (a dynamic ufunc that compiles a loop for
each new combination of input types), ``vectorize(sigs)(func)``;
``@guvectorize(sigs, layout, target="cuda")`` and ``@guvectorize(layout)``
(dynamic). `cuda.vectorize` targets CUDA by default; `numba.vectorize`
defaults to numba's CPU target, which cuhost runs through NumPy
(host_target.py: no CPU compiler); numba.guvectorize's host targets are not
implemented.
"""
import warnings as _warnings

from ... import types as _types

_CPU_TARGETS = ("cpu", "parallel")


def _check_target(target, what, host_ok=False):
    if target == "cuda" or (host_ok and target in _CPU_TARGETS):
        return
    if target in _CPU_TARGETS:
        raise NotImplementedError("%s(target=%r) needs numba's CPU compiler, which cuhost does not have "
                                  "(there is no base numba CPU compiler); use target='cuda'" % (what, target))
    raise ValueError("Unsupported target: %s" % (target,))


def _check_common(kws):
    if kws.pop("cache", False):
        raise TypeError("caching is not supported")


def _make_vectorize(default_target, what):
    def vectorize(ftylist_or_function=(), **kws):
        """vectorize(signatures=(), target=..., identity=None): a universal
        function from a scalar function. Without signatures the ufunc is
        dynamic: it compiles a loop for each new combination of input types."""
        if callable(ftylist_or_function) and not isinstance(ftylist_or_function, (str, list, tuple)) and \
                not _is_type_signature(ftylist_or_function):
            return vectorize(**kws)(ftylist_or_function)
        if isinstance(ftylist_or_function, str) or _is_type_signature(ftylist_or_function):
            sigs = [ftylist_or_function]
        elif ftylist_or_function is None:
            sigs = []
        else:
            sigs = list(ftylist_or_function)
        kws = dict(kws)
        target = kws.pop("target", default_target)
        _check_target(target, what, host_ok=True)
        identity = kws.pop("identity", None)
        _check_common(kws)
        if target in _CPU_TARGETS:
            return _host_vectorize(sigs, target, identity, kws)
        for opt in kws:
            if opt == "nopython":
                _warnings.warn("nopython kwarg for cuda target is redundant", RuntimeWarning)
            else:
                raise KeyError("Unrecognized options. cuda vectorize target does not support option: '%s'" % opt)

        def wrap(func):
            # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
            from .ufunc import CUDAUFunc

            uf = CUDAUFunc(func, identity=identity)
            for sig in sigs:
                uf.add(sig)
            if sigs:
                uf.disable_compile()
            return uf

        return wrap

    vectorize.__name__ = "vectorize"
    vectorize.__qualname__ = "vectorize"
    return vectorize


def _host_vectorize(sigs, target, identity, kws):
    """numba's host targets: a ufunc run by NumPy (host_target.py)."""
    for opt in kws:
        if opt not in ("nopython", "fastmath", "forceobj", "boundscheck", "writable_args"):
            raise KeyError("Unrecognized options. %s vectorize target does not support option: '%s'" % (target, opt))

    def wrap(func):
        # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
        from .host_target import HostUFunc

        uf = HostUFunc(func, identity=identity, target=target)
        for sig in sigs:
            uf.add(sig)
        if sigs:
            uf.disable_compile()
        return uf

    return wrap


def _is_type_signature(obj):
    return isinstance(obj, _types.Signature)


def _make_guvectorize(default_target, what):
    def guvectorize(*args, **kws):
        """guvectorize(signatures, layout, target=...): a generalized ufunc
        whose function works on core arrays described by `layout`, e.g.
        "(m,n),(n,p)->(m,p)"; outputs are the last arguments. With only a
        layout the gufunc is dynamic."""
        # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
        from .gufunc import check_signature_returns_none

        if len(args) == 1:
            sigs, layout = [], args[0]
        elif len(args) == 2:
            sigs, layout = args
        else:
            raise TypeError("guvectorize() takes one or two positional arguments")
        if isinstance(sigs, str) or _is_type_signature(sigs):
            sigs = [sigs]
        kws = dict(kws)
        target = kws.pop("target", default_target)
        _check_target(target, what)
        identity = kws.pop("identity", None)
        kws.pop("is_dynamic", None)
        _check_common(kws)
        if kws.pop("writable_args", ()):
            raise TypeError("writable_args are not supported")
        if not kws.pop("nopython", True):
            raise TypeError("nopython flag must be True")
        if kws:
            raise TypeError("The following target options are not supported: %s" % ", ".join(repr(k) for k in kws))

        for sig in sigs:
            check_signature_returns_none(sig)

        def wrap(func):
            # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
            from .gufunc import CUDAGeneralizedUFunc

            gu = CUDAGeneralizedUFunc(func, layout, identity=identity)
            for sig in sigs:
                gu.add(sig)
            if sigs:
                gu.disable_compile()
            return gu

        return wrap

    guvectorize.__name__ = "guvectorize"
    guvectorize.__qualname__ = "guvectorize"
    return guvectorize


# numba.cuda's decorators target CUDA; numba's own default to its CPU target.
vectorize = _make_vectorize("cuda", "vectorize")
guvectorize = _make_guvectorize("cuda", "guvectorize")
numba_vectorize = _make_vectorize("cpu", "numba.vectorize")
numba_guvectorize = _make_guvectorize("cpu", "numba.guvectorize")


class Vectorize:
    """numba's Vectorize builder (also numba.cuda.vectorizers.CUDAVectorize):
    Vectorize(func, identity=None, cache=False, targetoptions={}, target=...)
    returns a builder; add(sig) adds loops and build_ufunc() the ufunc."""

    def __new__(cls, func, identity=None, cache=False, targetoptions=None, **kws):
        kws = dict(kws, **(targetoptions or {}))
        kws.setdefault("target", "cuda")
        return _Builder(vectorize(identity=identity, cache=cache, **kws)(func))


class GUVectorize:
    """numba's GUVectorize builder (see Vectorize)."""

    def __new__(cls, func, signature, identity=None, cache=False, targetoptions=None, writable_args=(), **kws):
        kws = dict(kws, **(targetoptions or {}))
        kws.setdefault("target", "cuda")
        return _Builder(guvectorize(signature, identity=identity, cache=cache, writable_args=writable_args,
                                    **kws)(func))


class _Builder:
    def __init__(self, ufunc):
        self._ufunc = ufunc

    def add(self, sig=None):
        self._ufunc.add(sig)

    def disable_compile(self):
        self._ufunc.disable_compile()

    def build_ufunc(self):
        return self._ufunc
