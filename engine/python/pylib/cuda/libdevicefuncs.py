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

arg = namedtuple("arg", ("name", "ty", "is_ptr"))

_TYPES = {
    "void": types.void, "i16": types.int16, "u16": types.uint16, "i32": types.int32, "u32": types.uint32,
    "i64": types.int64, "u64": types.uint64, "f32": types.float32, "f64": types.float64,
}


def _parse(text):
    table = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) < 2:
            continue
        args = []
        for w in words[2:]:
            name, ty = w.split(":")
            is_ptr = name.startswith("*")
            args.append(arg(name.lstrip("*"), _TYPES[ty], is_ptr))
        table["__nv_" + words[0]] = (_TYPES[words[1]], args)
    return table


functions = _parse(_cuhost._libdevice_table())


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
