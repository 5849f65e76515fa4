"""Runs a batch of generated programs in one process, under cuhost (`cuhost
run runner.py cuhost DIR SEEDS...`: @cuda.jit kernels on one thread) or under
numba's CPU JIT (`python runner.py numba DIR SEEDS...`), and prints one JSON
line per program: its outputs as exact bit patterns, or the exception.

Program files are DIR/p<seed>.py (written by fuzz.py); they import their
decorators and atomics from `_fuzzenv`, which this runner builds for its mode.
"""
import importlib.util
import json
import os
import struct
import sys
import types
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

warnings.simplefilter("ignore")
ATOMIC_OPS = ["add", "sub", "exch", "max", "min", "and_", "or_", "xor"]


def make_env(mode):
    env = types.ModuleType("_fuzzenv")
    import math
    env.np, env.math = np, math
    if mode == "cuhost":
        from numba import cuda
        env.KERN = cuda.jit
        env.DEV = cuda.jit(device=True)
        for op in ATOMIC_OPS:
            setattr(env, "atomic_" + op, getattr(cuda.atomic, op))
    else:
        import numba
        jit = numba.njit(error_model="numpy")
        env.KERN = jit
        env.DEV = jit

        # One thread's atomics: the old value back, the new one stored (the
        # value is already of the array's dtype, as numba-cuda casts it).
        @jit
        def atomic_add(a, i, v):
            old = a[i]
            a[i] = old + v
            return old

        @jit
        def atomic_sub(a, i, v):
            old = a[i]
            a[i] = old - v
            return old

        @jit
        def atomic_exch(a, i, v):
            old = a[i]
            a[i] = v
            return old

        @jit
        def atomic_max(a, i, v):
            old = a[i]
            a[i] = max(old, v)
            return old

        @jit
        def atomic_min(a, i, v):
            old = a[i]
            a[i] = min(old, v)
            return old

        @jit
        def atomic_and_(a, i, v):
            old = a[i]
            a[i] = old & v
            return old

        @jit
        def atomic_or_(a, i, v):
            old = a[i]
            a[i] = old | v
            return old

        @jit
        def atomic_xor(a, i, v):
            old = a[i]
            a[i] = old ^ v
            return old

        for name, fn in list(locals().items()):
            if name.startswith("atomic_"):
                setattr(env, name, fn)
    sys.modules["_fuzzenv"] = env


def inputs(prog):
    args = [np.zeros(gen.N_OI, np.int64), np.zeros(gen.N_OF, np.float64)]
    for name in sorted(gen.ATOMIC_WORK):
        dt = gen.ATOMIC_WORK[name]
        vals = [(j * 37 + prog.seed) % 100 - 40 for j in range(gen.N_WORK)]
        if dt.startswith("uint"):
            vals = [abs(v) for v in vals]
        args.append(np.array(vals, dtype=dt))
    for name, dt, layout, shape, base, vals in prog.arrays:
        a = np.array(vals, dtype=dt).reshape(base)
        if layout == "F2":
            a = np.asfortranarray(a)
        elif layout == "S1":
            a = a[1::2]
        elif layout == "S2":
            a = a[1::2, ::2][:, :shape[1]]
        args.append(a)
    for name, dt, val in prog.scalars:
        args.append(np.bool_(val) if dt == "bool" else np.dtype(dt).type(val))
    return args


def bits(a):
    if a.dtype.kind == "f":
        fmt = "<f" if a.dtype.itemsize == 4 else "<d"
        ifmt = "<I" if a.dtype.itemsize == 4 else "<Q"
        return [struct.unpack(ifmt, struct.pack(fmt, float(x)))[0] for x in a.ravel()]
    return [int(x) for x in a.ravel()]


def run_one(mode, d, seed, invalid):
    path = os.path.join(d, "p%d.py" % seed)
    prog = gen.generate_invalid(seed)[0] if invalid else gen.generate(seed)
    spec = importlib.util.spec_from_file_location("p%d" % seed, path)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
        args = inputs(prog)
        if mode == "cuhost":
            mod.k[1, 1](*args)
        else:
            mod.k(*args)
    except BaseException as e:  # noqa: B902 - every outcome is reported
        return {"seed": seed, "error": type(e).__name__, "message": str(e)[:2000]}
    outs = args[:2 + len(gen.ATOMIC_WORK)]
    return {"seed": seed, "out": [bits(a) for a in outs]}


def main():
    mode, d = sys.argv[1], sys.argv[2]
    invalid = os.environ.get("FUZZ_INVALID") == "1"
    make_env(mode)
    for s in sys.argv[3:]:
        print(json.dumps(run_one(mode, d, int(s), invalid)), flush=True)


if __name__ == "__main__":
    main()
