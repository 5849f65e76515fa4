"""numba.core.dispatcher: what numba.njit / numba.jit return inside cuhost.

Dispatcher is the C++ host dispatcher (_cuhost.HostDispatcher,
engine/python/host_dispatcher.cpp: typing of arguments, one compiled CPU
specialization per argument-type fingerprint, calls, results and errors)
plus numba's Python-level API over it: signatures, overloads, compile(),
disable_compile(), the inspect_* methods and pickling. Kernels calling the
function use one device function per Python function (cuda/_ext/resolve.py's
jit_impl), so the host and the kernels share the captured source.
"""
import inspect as _inspect
import sys
import types as _pytypes
import weakref as _weakref

import _cuhost
from cuda import compiler, types as _types
from cuda._ext.resolve import jit_impl
from cuda._type_spelling import from_handle
from cuda.core.caching import CacheStats, function_cache
from cuda.dispatcher import _FunctionPayload

from . import np_random  # noqa: F401  (registers np.random's CPU-target overloads)
from ._cpu_target import CPUTargetDescriptor

# numba.jit's options that cuhost's host calls honour; the device function
# kernels call takes those cuda.jit knows too.
_HOST_OPTIONS = ("nopython", "nogil", "cache", "fastmath", "error_model", "boundscheck", "inline", "forceinline",
                 "locals", "debug", "opt", "no_rewrites", "_nrt", "no_cpython_wrapper", "no_cfunc_wrapper",
                 "target", "_dbg_optnone", "_dbg_extend_lifetimes")
_REFUSED_OPTIONS = {"parallel": "parallel=True (numba's parallel accelerator)",
                    "looplift": "looplift=True (object mode loop lifting)",
                    "pipeline_class": "a custom pipeline_class",
                    "nopython": "nopython=False (object mode fallback)"}
# forceobj=True asks for object mode: the function runs on Python objects
# through the interpreter (_ObjectModeDispatcher); loop lifting, an
# optimization of object mode, may be asked for beside it.
_OBJECT_MODE_OPTIONS = ("forceobj", "looplift")


def _refusal(options, py_func=None):
    """The construct numba.jit was asked for that cuhost cannot compile, or None."""
    code = getattr(py_func, "__code__", None)
    if code is not None and code.co_flags & (_inspect.CO_GENERATOR | _inspect.CO_ASYNC_GENERATOR):
        return "a generator (yield)"
    if code is not None and code.co_flags & _inspect.CO_COROUTINE:
        return "a coroutine (async def)"
    for name, construct in _REFUSED_OPTIONS.items():
        if name not in options or (name == "looplift" and options.get("forceobj")):
            continue
        value = options[name]
        if (name == "nopython" and value is False) or (name != "nopython" and value not in (False, None)):
            return construct
    return None


def _to_type(spelling):
    return compiler._to_type(spelling)


class _HostOverload:
    """One compiled specialization (numba's CompileResult as far as it is read)."""

    def __init__(self, dispatcher, arghandles, rethandle):
        self._dispatcher = dispatcher
        self._args = arghandles
        self.argtypes = tuple(from_handle(h) for h in arghandles)
        self.signature = _types.Signature(from_handle(rethandle), self.argtypes)
        self.entry_point = dispatcher
        self.fndesc = _pytypes.SimpleNamespace(qualname=dispatcher.__qualname__,
                                               mangled_name=dispatcher.__qualname__)

    @property
    def library(self):
        d, args = self._dispatcher, self._args
        return _pytypes.SimpleNamespace(get_llvm_str=lambda: d._llvm(args), get_asm_str=lambda: d._asm(args))

    @property
    def type_annotation(self):
        typemap = {name: from_handle(t) for name, t in self._dispatcher._typemap(self._args).items()}
        return _pytypes.SimpleNamespace(typemap=typemap)


class Dispatcher(_cuhost.HostDispatcher):
    """A numba.njit function: callable on the host (compiled for the CPU) and
    from kernels (compiled as a device function)."""

    _memo = _weakref.WeakValueDictionary()  # pickled dispatchers by uuid (numba's _memo)
    targetdescr = CPUTargetDescriptor("cpu")  # numba.core.target_extension's CPU descriptor

    def __init__(self, py_func, options=None):
        self.targetoptions = dict(options or {})
        self._refused = _refusal(self.targetoptions, py_func)

    # --- the host call's helpers (host_dispatcher.cpp) ----------------------

    def _device_dispatcher(self):
        options = {k: v for k, v in self.targetoptions.items() if k in compiler._KNOWN_OPTIONS}
        return jit_impl(self.py_func, options)

    def _fold_arguments(self, args, kws):
        bound = _inspect.signature(self.py_func).bind(*args, **kws)
        bound.apply_defaults()
        out = []
        for name, param in bound.signature.parameters.items():
            value = bound.arguments[name]
            if param.kind == param.VAR_POSITIONAL:
                out.append(tuple(value))
            elif param.kind == param.VAR_KEYWORD:
                raise NotImplementedError("%s takes **%s: numba.njit functions cannot take keyword-argument "
                                          "dictionaries" % (self.__qualname__, name))
            else:
                out.append(value)
        return tuple(out)

    def _check_supported(self):
        if self._refused:
            raise NotImplementedError("%s uses %s, which cuhost's numba.jit does not compile (it compiles "
                                      "nopython-mode functions only)" % (self.__qualname__, self._refused))

    # --- numba's dispatcher API ---------------------------------------------

    @property
    def signatures(self):
        return [tuple(from_handle(h) for h in args) for args, _ in self._overloads()]

    @property
    def nopython_signatures(self):
        return [_types.Signature(from_handle(ret), tuple(map(from_handle, args))) for args, ret in self._overloads()]

    @property
    def overloads(self):
        return {tuple(from_handle(h) for h in args): _HostOverload(self, args, ret) for args, ret in self._overloads()}

    @property
    def stats(self):
        """Cache statistics, as numba's: cache_path (the folder of the
        cache=True files, else None), and Counters cache_hits
        (specializations loaded from those files) and cache_misses (every
        one compiled) per signature."""
        cached = bool(self.targetoptions.get("cache"))
        stats = CacheStats(function_cache(self._device_dispatcher()).cache_path if cached else None)
        for handles, by_layer in self._lookup_counts():
            sig = tuple(from_handle(h) for h in handles)
            if by_layer["cache files"]:
                stats.cache_hits[sig] = by_layer["cache files"]
            if by_layer["compiled"]:
                stats.cache_misses[sig] = by_layer["compiled"]
        return stats

    def compile(self, sig):
        """Compiles one signature (a string, a Signature or a tuple of argument
        types) and returns the dispatcher's entry for it."""
        self._check_supported()
        if isinstance(sig, (tuple, list)):
            self._compile_for(tuple(sig))
        elif isinstance(sig, str) and "(" not in sig:
            self._compile_for((_to_type(sig),))
        else:
            self._add_signature(sig)
        return self

    def disable_compile(self, val=True):
        self._can_compile = not val

    def get_overload(self, sig):
        args = tuple(sig.args) if isinstance(sig, _types.Signature) else tuple(sig)
        return self.overloads[args].entry_point

    def _spellings(self, signature):
        if signature is None:
            return None
        if isinstance(signature, _types.Signature):
            signature = signature.args
        return tuple(signature)

    def _for_each(self, signature, getter):
        if signature is not None:
            return getter(self._spellings(signature))
        return {tuple(from_handle(h) for h in args): getter(args) for args, _ in self._overloads()}

    def inspect_llvm(self, signature=None):
        return self._for_each(signature, self._llvm)

    def inspect_asm(self, signature=None):
        return self._for_each(signature, self._asm)

    def inspect_types(self, file=None, signature=None, pretty=False, style="default", **kwargs):
        if pretty:
            raise NotImplementedError("inspect_types(pretty=True) is not supported by cuhost")
        out = file if file is not None else sys.stdout
        if signature is not None:
            print(self._annotation(self._spellings(signature)), file=out)
            return
        for args, _ in self._overloads():
            print(self._annotation(args), file=out)

    def get_annotation_info(self, signature=None):
        raise NotImplementedError("Dispatcher.get_annotation_info is not supported by cuhost")

    def inspect_cfg(self, signature=None, show_wrapper=None, **kwargs):
        raise NotImplementedError("Dispatcher.inspect_cfg is not supported by cuhost")

    def parallel_diagnostics(self, signature=None, level=1):
        raise NotImplementedError("Dispatcher.parallel_diagnostics is not supported by cuhost (no parallel=True)")

    def __repr__(self):
        return "CPUDispatcher(%r)" % (self.py_func,)

    # --- pickling (numba's serialize: by value, re-used per uuid) ------------

    @property
    def _uuid(self):
        u = self.__dict__.get("_uuid_value")
        if u is None:
            import uuid  # only here: a fresh process need not import it (uuid imports platform)

            u = str(uuid.uuid4())
            self.__dict__["_uuid_value"] = u
            Dispatcher._memo[u] = self
        return u

    def __reduce__(self):
        # Argument types travel as cuda.types objects (handles live in one process only).
        sigs = [(args, None) for args in self.signatures]
        return (_rebuild, (self._uuid, _FunctionPayload(self.py_func), dict(self.targetoptions),
                           sigs, bool(self._can_compile)))


class _RefusedDispatcher(Dispatcher):
    """numba.jit asked for a construct cuhost cannot compile (object mode,
    parallel=True): kernels may not call it either, and calls raise."""

    def __call__(self, *args, **kwargs):
        self._check_supported()

    def _device_dispatcher(self):
        self._check_supported()


class _ObjectModeDispatcher(Dispatcher):
    """numba.jit(forceobj=True): object mode, where every operation works on
    Python objects through the C API, which is the interpreter's semantics:
    calls run the Python function itself. Kernels cannot call it (numba's
    CUDA target has no object mode)."""

    def __call__(self, *args, **kwargs):
        return self.py_func(*args, **kwargs)

    def compile(self, sig):
        return self

    def _device_dispatcher(self):
        raise NotImplementedError("%s is compiled in object mode (forceobj=True): kernels cannot call it"
                                  % (self.__qualname__,))


def _dispatcher_class(options, py_func):
    if _refusal(options, py_func) is not None:
        return _RefusedDispatcher
    return _ObjectModeDispatcher if options.get("forceobj") else Dispatcher


def _rebuild(uuid, py_func, options, sigs, can_compile):
    hit = Dispatcher._memo.get(uuid)
    if hit is not None:
        return hit
    d = _dispatcher_class(options, py_func)(py_func, options)
    d.__dict__["_uuid_value"] = uuid
    Dispatcher._memo[uuid] = d
    for args, _ in sigs:
        try:
            d._compile_for(tuple(args))
        except Exception:  # a specialization that no longer compiles compiles again when called
            pass
    d._can_compile = can_compile
    return d


def make_dispatcher(py_func, sigs=None, options=None):
    """numba.jit's work: the dispatcher, with its explicit signatures compiled
    (which, as in numba, turns lazy compilation off)."""
    options = dict(options or {})
    unknown = [k for k in options
               if k not in _HOST_OPTIONS and k not in _REFUSED_OPTIONS and k not in _OBJECT_MODE_OPTIONS]
    if unknown:
        raise KeyError("Unrecognized options: {%s}" % ", ".join(repr(k) for k in unknown))
    if options.get("target") not in (None, "cpu"):
        raise NotImplementedError("numba.jit(target=%r) is not supported by cuhost (use cuda.jit for the GPU)"
                                  % (options["target"],))
    d = _dispatcher_class(options, py_func)(py_func, options)
    if sigs and not isinstance(d, _ObjectModeDispatcher):  # object mode has no typed specializations
        d._check_supported()
        for sig in sigs:
            d._add_signature(sig)
        d.disable_compile()
    return d

