"""numba.cuda.libdevicefuncs: the functions of CUDA's libdevice and their signatures.

`functions` maps each libdevice name ("__nv_sinf") to (return type, [arg,
...]); an `arg` has a name, a type and `is_ptr` (True for a pointer to a
result: sincos's sine and cosine, frexp's exponent, ...; its `ty` is the
type pointed to). The table is the compiler's own (the engine's
sema/typing/libdevice_table.inc, generated from libdevice.10.bc), so what
is listed here is exactly what kernels can call as numba.cuda.libdevice.<name>.
"""
from collections import namedtuple

import _cuhost

from . import types
from ._type_spelling import from_handle

arg = namedtuple("arg", ("name", "ty", "is_ptr"))

def _table(entries):
    """The engine's table, whose types are handles: {"__nv_<name>": (return type, [arg, ...])}."""
    return {"__nv_" + name: (from_handle(result), [arg(p, from_handle(t), out) for p, t, out in params])
            for name, result, params in entries}


functions = _table(_cuhost._libdevice_table())


def create_signature(retty, args):
    """The signature a libdevice function has in Python: its value arguments,
    returning its result, or a tuple of the result (unless void) and the
    values its pointer arguments receive."""
    values = [a.ty for a in args if not a.is_ptr]
    outs = [a.ty for a in args if a.is_ptr]
    if outs:
        results = ([] if retty == types.void else [retty]) + outs
        retty = types.Tuple(results)
    return types.Signature(retty, values)
