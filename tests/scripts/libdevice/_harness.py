"""Runs one libdevice function elementwise over arrays in a kernel.

call("sincos", x) launches a kernel that stores libdevice.sincos(x[i]) for
every i and returns the results as NumPy arrays (a tuple for functions with
out-parameters), typed as numba.cuda.libdevicefuncs says.
"""
import numpy as np
from numba import cuda
from numba.cuda import types
from numba.cuda.libdevicefuncs import functions, create_signature

_TEMPLATE = """
from numba import cuda
from numba.cuda import libdevice

def kernel({outs}, {ins}):
    i = cuda.grid(1)
    if i < {first_in}.size:
        {targets} = libdevice.{name}({args})
"""

_cache = {}


def signature(name):
    retty, args = functions["__nv_" + name]
    return create_signature(retty, args)


def result_types(name):
    sig = signature(name)
    if isinstance(sig.return_type, (types.Tuple, types.UniTuple)):
        return list(sig.return_type), True
    return [sig.return_type], False


def kernel_for(name):
    if name not in _cache:
        sig = signature(name)
        rts, multi = result_types(name)
        outs = ["r%d" % i for i in range(len(rts))]
        ins = ["a%d" % i for i in range(len(sig.args))]
        targets = ", ".join(o + "[i]" for o in outs) + ("," if multi and len(outs) == 1 else "")
        src = _TEMPLATE.format(outs=", ".join(outs), ins=", ".join(ins), first_in=ins[0], targets=targets, name=name,
                               args=", ".join(a + "[i]" for a in ins))
        ns = {}
        exec(compile(src, "<libdevice %s>" % name, "exec"), ns)
        _cache[name] = cuda.jit(ns["kernel"])
    return _cache[name]


def call(name, *inputs):
    sig = signature(name)
    rts, multi = result_types(name)
    ins = [np.ascontiguousarray(np.asarray(a).astype(str(t))) for a, t in zip(inputs, sig.args)]
    n = ins[0].size
    outs = [np.zeros(n, dtype=str(t)) for t in rts]
    kernel_for(name)[(n + 63) // 64, 64](*outs, *ins)
    return tuple(outs) if multi else outs[0]
