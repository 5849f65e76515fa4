"""The checks and defaults of cuda.jit's options, below both of their users:
cuda.jit (compiler.py) applies them to a decorator's options, and
dispatcher.py to the options of a dispatcher rebuilt from a pickle, which
then gives the same warnings and errors as the decorator did.
"""
import warnings as _warnings

import _cuhost

from . import config
from .core.errors import NumbaInvalidConfigWarning

KNOWN_OPTIONS = _cuhost.jit_option_names()  # the engine's one list (dispatcher_jit_options.cpp)


def _apply_config_defaults(options):
    """debug and opt left unset take numba.cuda.config's CUDA_DEBUGINFO_DEFAULT
    and OPT (read now, so override_config and NUMBA_* variables apply);
    debug with optimization on warns, as numba-cuda does, since CUDA's
    tools do not support debugging optimized code."""
    if options.get("debug") is None:
        options["debug"] = bool(config.CUDA_DEBUGINFO_DEFAULT)
    if options.get("opt") is None:
        options["opt"] = config.OPT != 0
    if options["debug"] and options["opt"]:
        _warnings.warn(NumbaInvalidConfigWarning("debug=True with opt=True is not supported by CUDA. This may result "
                                                 "in a crash - set debug=False or opt=False."))


def prepare(options, device):
    """A checked copy of cuda.jit's keyword options with `device` and the
    config defaults filled in."""
    for name in options:
        if name not in KNOWN_OPTIONS:
            raise TypeError("cuda.jit() got an unexpected option '%s' (known: %s)" % (name, ", ".join(KNOWN_OPTIONS)))
    options = dict(options)
    options["device"] = device
    if options.get("abi", "numba") not in ("numba", "c"):
        raise NotImplementedError("Unsupported ABI: %s" % (options["abi"],))

    if options.get("cache") and options.get("link"):
        # A cached kernel is loaded in other processes, where the files it
        # linked (and their setup callbacks) are not part of it.
        raise RuntimeError("Cannot pickle CUDACodeLibrary with linking files: cache=True cannot be combined with link=")

    _apply_config_defaults(options)
    if options.get("debug") and options.get("lineinfo"):
        _warnings.warn(NumbaInvalidConfigWarning("debug and lineinfo are mutually exclusive. Use debug to get "
                                                 "full debug info (this implies lineinfo), or lineinfo for line "
                                                 "info only with code generation unaffected."))
    return options
