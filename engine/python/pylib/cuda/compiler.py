"""The decorator and compile front end of the `cuda` module.

`@cuda.jit` in every numba-cuda form, `cuda.compile_ptx`, `cuda.compile`,
`cuda.declare_device` (the `LinkableCode` classes are in cudadrv/linkable_code.py). The heavy lifting
(options, signatures, capture, compilation, launches) happens in the C++
`_cuhost` module; this file only handles the Python-shaped parts: decorator
forms, keyword defaults and turning type spellings into `cuda.types` objects.
"""
import atexit as _atexit

import _cuhost

from . import _jit_options, types as _types
from ._numba_types import from_numba as _from_numba
from ._type_spelling import (
    from_handle as _from_handle,
    to_type as _to_type,  # noqa: F401 (imported from here by ufuncs, kernels, numba.core)
)
from .cudadrv.linkable_code import LTOIR, Archive, Cubin, CUSource, Fatbin, LinkableCode, Object, PTXSource
from .dispatcher import CUDADispatcher, _build

__all__ = ["jit", "compile_ptx", "compile_ptx_for_current_device", "compile", "compile_for_current_device",
           "compile_all",
           "declare_device", "LinkableCode", "PTXSource", "CUSource", "Fatbin", "Cubin", "Archive", "Object",
           "LTOIR"]

_KNOWN_OPTIONS = _jit_options.KNOWN_OPTIONS  # numba/core/dispatcher.py and _ext/resolve.py read it here


def _is_signature(obj):
    return isinstance(obj, (str, _types.Signature, _types.Type)) or (
        isinstance(obj, tuple) and all(isinstance(t, _types.Type) for t in obj))


def jit(func_or_sig=None, device=False, **options):
    """Compile a Python function into a CUDA kernel or device function.

    Forms: ``@jit``, ``@jit(device=True, ...)``, ``@jit("void(float32[::1])")``,
    ``@jit(["void(float32[::1])", "void(float64[::1])"])`` and signature
    objects built from ``cuda.types``.
    """
    func_or_sig = _from_numba(func_or_sig)  # numba's own types, where numba is installed
    options = _jit_options.prepare(options, device)

    def build(pyfunc, sigs):
        return _build(CUDADispatcher, pyfunc, sigs, options)

    if func_or_sig is None:
        return lambda pyfunc: build(pyfunc, None)
    if isinstance(func_or_sig, list):
        for s in func_or_sig:
            if not _is_signature(s):
                raise TypeError("invalid signature %r in the list given to cuda.jit" % (s,))
        sigs = list(func_or_sig)
        return lambda pyfunc: build(pyfunc, sigs)
    if _is_signature(func_or_sig):
        # One signature, not in a list: numba-cuda's "specialized" dispatcher
        # (its launches skip argument type checks; see dispatcher.cpp).
        return lambda pyfunc: build(pyfunc, func_or_sig)
    if isinstance(func_or_sig, _cuhost.Dispatcher):
        raise TypeError("cuda.jit was applied to a function that is already jitted: %r" % (func_or_sig,))
    if callable(func_or_sig):
        return build(func_or_sig, None)
    raise TypeError("cuda.jit expects a function, a signature or a list of signatures, got %s"
                    % type(func_or_sig).__name__)


def _cc_tuple(cc):
    """cc=(9, 0) or (9, 0, "a") -> (major, minor, suffix)."""
    if cc is None:
        return None
    if len(cc) == 3:
        if cc[2] not in ("a", "f", ""):
            raise ValueError("invalid architecture suffix %r in cc=%r (expected 'a' or 'f')" % (cc[2], cc))
        return (int(cc[0]), int(cc[1]), cc[2])
    return (int(cc[0]), int(cc[1]), "")


def _check_compile_options(abi, output, forceinline, device):
    if abi not in ("numba", "c"):
        raise NotImplementedError("Unsupported ABI: %s" % (abi,))
    if output not in ("ptx", "ltoir"):
        raise NotImplementedError("Unsupported output type: %s" % (output,))
    if forceinline and output != "ltoir":
        raise ValueError("Can only designate forced inlining in LTO-IR")
    if abi == "c" and not device:
        raise NotImplementedError("The C ABI is not supported for kernels")


def compile(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None,
            abi="c", abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    """Compile a Python function for a signature to PTX (``output="ptx"``);
    returns (code, return_type). ``output="ltoir"`` raises NotImplementedError:
    LLVM's NVPTX backend cannot produce NVVM LTO-IR."""
    _check_compile_options(abi, output, forceinline, device)
    cc = _cc_tuple(cc)
    sig = _from_numba(sig)
    code, resty = _cuhost._compile(pyfunc, sig, device=device, fastmath=fastmath, cc=cc, opt=True if opt is None
                                   else bool(opt), abi=abi, abi_info=abi_info, lineinfo=lineinfo, output=output,
                                   debug=bool(debug), launch_bounds=launch_bounds)
    if output == "ptx":
        code = code.decode("utf-8")
    return code, _from_handle(resty)


def compile_all(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None,
                abi="c", abi_info=None, output="ltoir", forceinline=False, launch_bounds=None):
    """Like compile(), but returns ([code of the function, code of each item
    it links], return_type): CUDA C sources are compiled by NVRTC to the same
    output kind; other linkable code is returned as it is (bytes)."""
    _check_compile_options(abi, output, forceinline, device)
    code, resty = compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath, cc=cc,
                          opt=opt, abi=abi, abi_info=abi_info, output=output, forceinline=forceinline,
                          launch_bounds=launch_bounds)
    codes = [code]
    links = pyfunc.targetoptions.get("link") if isinstance(pyfunc, _cuhost.Dispatcher) else None
    for item in _link_list(links):
        codes.append(_compile_link_item(item, cc, output))
    return codes, resty


def _link_list(links):
    if links is None:
        return []
    if isinstance(links, (list, tuple, set)):
        return list(links)
    return [links]


def _compile_link_item(item, cc, output):
    from .cudadrv import nvrtc

    obj = LinkableCode.from_path(item) if isinstance(item, str) else item
    if getattr(obj, "__cuhost_link_kind__", None) == "CUSource":
        major, minor = (cc or (9, 0))[:2]
        code, _log = nvrtc.compile(obj.data, obj.name, (major, minor), ltoir=output == "ltoir")
        return code.code if output == "ltoir" else code.code.decode("utf8")
    data = obj.data
    return data.getvalue() if hasattr(data, "getvalue") else data


def compile_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, opt=None,
                               abi="c", abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                   cc=_cuhost._current_cc(), opt=opt, abi=abi, abi_info=abi_info, output=output,
                   forceinline=forceinline, launch_bounds=launch_bounds)


def compile_ptx(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False, cc=None, opt=None,
                abi="numba", abi_info=None, forceinline=False, launch_bounds=None):
    """numba's compile_ptx: (ptx text, return type)."""
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath, cc=cc, opt=opt,
                   abi=abi, abi_info=abi_info, output="ptx", forceinline=forceinline, launch_bounds=launch_bounds)


def compile_ptx_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False,
                                   opt=None, abi="numba", abi_info=None, forceinline=False, launch_bounds=None):
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                       cc=_cuhost._current_cc(), opt=opt, abi=abi, abi_info=abi_info, forceinline=forceinline,
                       launch_bounds=launch_bounds)


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba", *, python_name=None, cpu_link=None):
    """Declare a foreign device function callable from kernels.

    python_name: how error messages name it (plugins: "plugin.function");
    cpu_link: items the CPU backend links instead of `link` (a host implementation).
    """
    obj = _cuhost._declare_device(name, _from_numba(sig), link, use_cooperative, abi, python_name, cpu_link)
    ret, args = obj._sig_handles
    obj.sig = _types.Signature(_from_handle(ret), tuple(_from_handle(a) for a in args))
    return obj


# numba-cuda's compiler pipeline (numba.cuda.compiler): Python passes that
# cuhost runs in C++, plus compile_all (not implemented yet).
from ._missing import missing as _missing  # noqa: E402

_missing(globals(), """
    run_frontend compile_cuda compile_extra compile_ir compile_internal kernel_fixup
    declare_device_function Extern CUDACompiler CUDACompileResult CUDABackend CUDABytecodeInterpreter
    CUDATranslateBytecode CreateLibrary CUDANativeLowering DefaultPassBuilder CompilerBase PassManager
    cuda_compile_result sanitize_compile_result_entries add_exception_store_helper
""")


# Teardown callbacks run when modules unload: at exit, while Python still runs.
_atexit.register(_cuhost._unload_modules)
