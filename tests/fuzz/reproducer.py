"""Keeps a difference found by backends.py as a folder that needs nothing of
tests/fuzz: program.py (the generated kernel, its `_fuzzenv` import
satisfied by repro.py), repro.py (builds the same inputs from literal bytes,
launches the kernel [1, 1] and prints each output array's bit patterns as
one JSON line) and result.json (what each side printed, and the
difference). Run it on both backends:

    cuhost --backend cpu run DIR/repro.py
    cuhost --backend cuda run DIR/repro.py      (NUMBA_OPT=0: no fma contraction)
"""
import json
import os
import struct

FORMATS = {"int8": "b", "int16": "h", "int32": "i", "int64": "q", "uint8": "B", "uint16": "H", "uint32": "I",
           "uint64": "Q", "float32": "f", "float64": "d"}

REPRO = '''"""Reproducer of fuzz seed {seed}: {why}
Run: cuhost --backend cpu run repro.py; cuhost --backend cuda run repro.py"""
import importlib.util
import json
import math
import os
import struct
import sys
import types

import numpy as np
from numba import cuda

env = types.ModuleType("_fuzzenv")
env.np, env.math = np, math
env.KERN = cuda.jit
env.DEV = cuda.jit(device=True)
for op in ["add", "sub", "exch", "max", "min", "and_", "or_", "xor"]:
    setattr(env, "atomic_" + op, getattr(cuda.atomic, op))
sys.modules["_fuzzenv"] = env


def array(dtype, shape, hexbytes, layout):
    a = np.frombuffer(bytes.fromhex(hexbytes), dtype=dtype).reshape(shape).copy()
    if layout == "F2":
        return np.asfortranarray(a)
    if layout == "S1":
        return a[1::2]
    if layout.startswith("S2:"):
        return a[1::2, ::2][:, :int(layout[3:])]
    return a


ARRAYS = {arrays}
SCALARS = {scalars}
N_OUT = {n_out}

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("program", os.path.join(here, "program.py"))
program = importlib.util.module_from_spec(spec)
spec.loader.exec_module(program)
args = [array(*a) for a in ARRAYS]
args += [np.bool_(v) if dt == "bool" else np.dtype(dt).type(v) for dt, v in SCALARS]
program.k[1, 1](*args)


def bits(a):
    if a.dtype.kind == "f":
        fmt, ifmt = ("<f", "<I") if a.dtype.itemsize == 4 else ("<d", "<Q")
        return [struct.unpack(ifmt, struct.pack(fmt, float(x)))[0] for x in a.ravel()]
    return [int(x) for x in a.ravel()]


print(json.dumps([bits(a) for a in args[:N_OUT]]))
'''


def packed(dt, vals):
    """The bytes NumPy gives np.array(vals, dtype=dt) (a float32 past its
    range becomes an infinity, as NumPy's conversion gives)."""
    out = []
    for v in vals:
        try:
            out.append(struct.pack("<" + FORMATS[dt], v))
        except OverflowError:
            out.append(struct.pack("<f", float("inf") if v > 0 else float("-inf")))
    return b"".join(out).hex()


def write(folder, prog, outputs, why, results):
    """`outputs`: runner.output_values(prog), the output arrays' starting
    values; the other inputs are rebuilt from `prog` as runner.py does."""
    os.makedirs(folder, exist_ok=True)
    arrays = [(dt, [len(vals)], packed(dt, vals), "C") for dt, vals in outputs]
    for _name, dt, layout, shape, base, vals in prog.arrays:
        view = "S2:%d" % shape[1] if layout == "S2" else layout
        arrays.append((dt, list(base), packed(dt, vals), view))
    scalars = [(dt, bool(v) if dt == "bool" else v) for _name, dt, v in prog.scalars]
    with open(os.path.join(folder, "program.py"), "w") as f:
        f.write(prog.source)
    with open(os.path.join(folder, "repro.py"), "w") as f:
        f.write(REPRO.format(seed=prog.seed, why=why.replace('"', "'").replace("\\", "/")[:300],
                             arrays=repr(arrays), scalars=_scalars_literal(scalars), n_out=len(outputs)))
    with open(os.path.join(folder, "result.json"), "w") as f:
        json.dump({"seed": prog.seed, "difference": why, "results": results}, f, indent=1)


def _scalars_literal(scalars):
    """Python text for the scalars, floats as float.fromhex (nan and inf too)."""
    parts = []
    for dt, v in scalars:
        if isinstance(v, float):
            parts.append("(%r, float.fromhex(%r))" % (dt, v.hex()))
        else:
            parts.append("(%r, %r)" % (dt, v))
    return "[" + ", ".join(parts) + "]"
