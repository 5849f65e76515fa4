"""The decorator and compile front end of the `cuda` module.

`@cuda.jit` in every numba-cuda form, `cuda.compile_ptx`, `cuda.compile`,
`cuda.declare_device` and the `LinkableCode` classes. The heavy lifting
(options, signatures, capture, compilation, launches) happens in the C++
`_cuhost` module; this file only handles the Python-shaped parts: decorator
forms, keyword defaults and turning type spellings into `cuda.types` objects.
"""
import atexit as _atexit
import io as _io
import os as _os

import _cuhost

from . import types as _types

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


class LinkableCode:
    """Foreign code to link into kernels: data is bytes, str, StringIO or BytesIO."""
    kind = None
    _cuhost_link_kind = None

    def __init__(self, data, name=None, setup_callback=None, teardown_callback=None):
        if setup_callback is not None and not callable(setup_callback):
            raise TypeError("setup_callback must be callable")
        if teardown_callback is not None and not callable(teardown_callback):
            raise TypeError("teardown_callback must be callable")
        if not isinstance(data, (bytes, bytearray, str, _io.StringIO, _io.BytesIO)):
            raise TypeError("LinkableCode data must be bytes, str, StringIO or BytesIO, not %s" % type(data).__name__)
        self.data = data
        self._name = name
        self.setup_callback = setup_callback
        self.teardown_callback = teardown_callback

    @property
    def name(self):
        return self._name or self.default_name

    @classmethod
    def from_path(cls, path):
        ext = _os.path.splitext(path)[1]
        kind = _BY_EXTENSION.get(ext)
        if kind is None:
            raise ValueError("Don't know how to link file with extension %s: %r" % (ext or "(none)", path))
        if not _os.path.isfile(path):
            raise FileNotFoundError("%s not found" % path)
        with open(path, "rb") as f:
            code = kind(f.read(), name=_os.path.basename(path))
        code._cuhost_source_dir = _os.path.dirname(_os.path.abspath(path))  # quoted #includes of a .cu
        return code

    def __repr__(self):
        return "<%s %s>" % (type(self).__name__, self.name)


class PTXSource(LinkableCode):
    kind = _cuhost_link_kind = "PTXSource"
    default_name = "<unnamed-ptx>"


class CUSource(LinkableCode):
    kind = _cuhost_link_kind = "CUSource"
    default_name = "<unnamed-cu>"


class Fatbin(LinkableCode):
    kind = _cuhost_link_kind = "Fatbin"
    default_name = "<unnamed-fatbin>"


class Cubin(LinkableCode):
    kind = _cuhost_link_kind = "Cubin"
    default_name = "<unnamed-cubin>"


class Archive(LinkableCode):
    kind = _cuhost_link_kind = "Archive"
    default_name = "<unnamed-archive>"


class Object(LinkableCode):
    kind = _cuhost_link_kind = "Object"
    default_name = "<unnamed-object>"


class LTOIR(LinkableCode):
    kind = _cuhost_link_kind = "LTOIR"
    default_name = "<unnamed-ltoir>"


_BY_EXTENSION = {".ptx": PTXSource, ".cu": CUSource, ".fatbin": Fatbin, ".cubin": Cubin, ".a": Archive,
                 ".o": Object, ".ltoir": LTOIR}


# Teardown callbacks run when modules unload: at exit, while Python still runs.
_atexit.register(_cuhost._unload_modules)
