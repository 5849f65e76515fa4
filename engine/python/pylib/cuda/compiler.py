"""The decorator and compile front end of the `cuda` module.

`@cuda.jit` in every numba-cuda form, `cuda.compile_ptx`, `cuda.compile`,
`cuda.declare_device` (the `LinkableCode` classes are in cudadrv/linkable_code.py). The heavy lifting
(options, signatures, capture, compilation, launches) happens in the C++
`_cuhost` module; this file only handles the Python-shaped parts: decorator
forms, keyword defaults and turning type spellings into `cuda.types` objects.
"""
import atexit as _atexit

import _cuhost

from . import types as _types
from .cudadrv.linkable_code import (  # noqa: F401  (re-exported: cuda.LinkableCode, ...)
    LinkableCode, PTXSource, CUSource, Fatbin, Cubin, Archive, Object, LTOIR)

__all__ = ["jit", "compile_ptx", "compile_ptx_for_current_device", "compile", "compile_for_current_device",
           "declare_device", "LinkableCode", "PTXSource", "CUSource", "Fatbin", "Cubin", "Archive", "Object",
           "LTOIR"]

_KNOWN_OPTIONS = ("device", "inline", "fastmath", "debug", "lineinfo", "opt", "link", "lto", "cache",
                  "max_registers", "abi", "abi_info")


def _to_type(spelling):
    """A cuda.types object for a numba type spelling."""
    if spelling in ("none", "void"):
        return _types.void
    if spelling == "bool":
        return _types.boolean
    t = getattr(_types, spelling, None)
    if isinstance(t, _types.Type):
        return t
    return _types.Type(spelling)


def _signatures_from_spellings(spellings):
    return [tuple(_to_type(s) for s in sig) for sig in spellings]


def _is_signature(obj):
    return isinstance(obj, (str, _types.Signature)) or hasattr(obj, "_cuhost_type") or (
        isinstance(obj, tuple) and all(hasattr(t, "_cuhost_type") for t in obj))


def jit(func_or_sig=None, device=False, **options):
    """Compile a Python function into a CUDA kernel or device function.

    Forms: ``@jit``, ``@jit(device=True, ...)``, ``@jit("void(float32[::1])")``,
    ``@jit(["void(float32[::1])", "void(float64[::1])"])`` and signature
    objects built from ``cuda.types``.
    """
    for name in options:
        if name not in _KNOWN_OPTIONS:
            raise TypeError("cuda.jit() got an unexpected option '%s' (known: %s)" % (name, ", ".join(_KNOWN_OPTIONS)))
    options = dict(options)
    options["device"] = device
    if options.get("abi", "numba") not in ("numba", "c"):
        raise NotImplementedError("Unsupported ABI: %s" % (options["abi"],))

    def build(pyfunc, sigs):
        return _cuhost.Dispatcher(pyfunc, sigs, options)

    if func_or_sig is None:
        return lambda pyfunc: build(pyfunc, None)
    if isinstance(func_or_sig, list):
        for s in func_or_sig:
            if not _is_signature(s):
                raise TypeError("invalid signature %r in the list given to cuda.jit" % (s,))
        sigs = list(func_or_sig)
        return lambda pyfunc: build(pyfunc, sigs)
    if _is_signature(func_or_sig):
        sigs = [func_or_sig]
        return lambda pyfunc: build(pyfunc, sigs)
    if isinstance(func_or_sig, _cuhost.Dispatcher):
        raise TypeError("cuda.jit was applied to a function that is already jitted: %r" % (func_or_sig,))
    if callable(func_or_sig):
        return build(func_or_sig, None)
    raise TypeError("cuda.jit expects a function, a signature or a list of signatures, got %s"
                    % type(func_or_sig).__name__)


def compile(pyfunc, sig, debug=False, lineinfo=False, device=True, fastmath=False, cc=None, opt=True,
            abi="c", abi_info=None, output="ptx"):
    """Compile to PTX for a signature; returns (code, return_type)."""
    code, resty = _cuhost._compile(pyfunc, sig, device=device, fastmath=fastmath, cc=cc, opt=opt, abi=abi,
                                   abi_info=abi_info, lineinfo=lineinfo, output=output, debug=debug)
    if output == "ptx":
        code = code.decode("utf-8")
    return code, _to_type(resty)


def compile_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=True, fastmath=False, opt=True,
                               abi="c", abi_info=None, output="ptx"):
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                   cc=_cuhost._current_cc(), opt=opt, abi=abi, abi_info=abi_info, output=output)


def compile_ptx(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False, cc=None, opt=True,
                abi="numba", abi_info=None):
    """numba's compile_ptx: (ptx text, return type)."""
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath, cc=cc, opt=opt,
                   abi=abi, abi_info=abi_info, output="ptx")


def compile_ptx_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False,
                                   opt=True, abi="numba", abi_info=None):
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                       cc=_cuhost._current_cc(), opt=opt, abi=abi, abi_info=abi_info)


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba", *, python_name=None, cpu_link=None):
    """Declare a foreign device function callable from kernels.

    python_name: how error messages name it (plugins: "plugin.function");
    cpu_link: items the CPU backend links instead of `link` (a host implementation).
    """
    obj = _cuhost._declare_device(name, sig, link, use_cooperative, abi, python_name, cpu_link)
    ret, args = obj._sig_spellings
    obj.sig = _types.Signature(_to_type(ret), tuple(_to_type(a) for a in args))
    return obj


# numba-cuda's compiler pipeline (numba.cuda.compiler): Python passes that
# cuhost runs in C++, plus compile_all (not implemented yet).
from ._missing import missing as _missing  # noqa: E402

_missing(globals(), """
    compile_all run_frontend compile_cuda compile_extra compile_ir compile_internal kernel_fixup
    declare_device_function Extern CUDACompiler CUDACompileResult CUDABackend CUDABytecodeInterpreter
    CUDATranslateBytecode CreateLibrary CUDANativeLowering DefaultPassBuilder CompilerBase PassManager
    cuda_compile_result sanitize_compile_result_entries add_exception_store_helper
""")
__all__.append("compile_all")


# Teardown callbacks run when modules unload: at exit, while Python still runs.
_atexit.register(_cuhost._unload_modules)
