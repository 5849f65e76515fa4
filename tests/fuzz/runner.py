"""Runs a batch of generated programs in one process, under cuhost (`cuhost
run runner.py cuhost DIR SEEDS...`: @cuda.jit kernels on one thread) or under
numba's CPU JIT (`python runner.py numba DIR SEEDS...`), and prints one JSON
line per program: its outputs as exact bit patterns, or the exception.

`python runner.py numba-serve` keeps numba warm: it imports numba once, then
reads requests from stdin, one a line (`DIR SEED SEED...`), answers each
program with its JSON line and each request with a line `END`, until stdin
closes; fuzz.py's workers feed it many batches, so numba's import is paid
once per worker and its compile time is the cost.

Program files are DIR/p<seed>.py (written by fuzz.py); they import their
decorators and atomics from `_fuzzenv`, which this runner builds for its mode.

FUZZ_PLANT=K (backends.py --plant K, a test of the harness itself) perturbs
the outputs of every K-th seed after the run, in one of four ways chosen by
the seed: an integer's lowest bit, an exactly computed float by one ulp, a
transcendental result by one ulp (inside the libdevice/libm rule), and a
transcendental result by 64 ulps (outside it).
"""
import importlib.util
import json
import os
import struct
import sys
import types
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

warnings.simplefilter("ignore")
ATOMIC_OPS = ["add", "sub", "exch", "max", "min", "and_", "or_", "xor"]


try:
    import numpy as np
except ImportError:   # the harness's parent process only needs output_values()
    np = None


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


def output_values(prog):
    """The output arrays' starting values: (dtype, Python numbers) each."""
    outs = [("int64", [0] * gen.N_OI), ("float64", [0.0] * gen.N_OF)]
    for name in sorted(gen.ATOMIC_WORK):
        dt = gen.ATOMIC_WORK[name]
        vals = [(j * 37 + prog.seed) % 100 - 40 for j in range(gen.N_WORK)]
        if dt.startswith("uint"):
            vals = [abs(v) for v in vals]
        outs.append((dt, vals))
    return outs


def inputs(prog):
    args = [np.array(vals, dtype=dt) for dt, vals in output_values(prog)]
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
    outs = [bits(a) for a in args[:2 + len(gen.ATOMIC_WORK)]]
    plant = int(os.environ.get("FUZZ_PLANT") or 0)
    if plant and seed % plant == 0:
        planted(prog, outs)
    return {"seed": seed, "out": outs}


def planted(prog, outs):
    """A difference planted on purpose (FUZZ_PLANT): see the docstring."""
    oi, of = outs[0], outs[1]
    kind = (prog.seed // 7) % 4
    exact = [j for j in range(gen.N_OF) if j not in prog.inexact_fn and of[j] & 0x7FF0000000000000 != 0x7FF0000000000000]
    inexact = [j for j in sorted(prog.inexact_fn) if of[j] & 0x7FF0000000000000 != 0x7FF0000000000000]
    if kind == 0 or (kind == 1 and not exact) or (kind >= 2 and not inexact):
        oi[prog.seed % gen.N_OI] ^= 1
    elif kind == 1:
        of[exact[0]] += 1
    else:
        j = inexact[0]
        fn, may_f32 = prog.inexact_fn[j]
        x = struct.unpack("<d", struct.pack("<Q", of[j]))[0]
        steps = 1 if kind == 2 else 64
        if may_f32 and struct.unpack("<f", struct.pack("<f", x))[0] == x:
            b = struct.unpack("<I", struct.pack("<f", x))[0] + steps
            x = struct.unpack("<f", struct.pack("<I", b))[0]
            of[j] = struct.unpack("<Q", struct.pack("<d", x))[0]
        else:
            of[j] += steps


def serve(invalid):
    """numba-serve: requests from stdin until it closes (module docstring)."""
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        for s in parts[1:]:
            print(json.dumps(run_one("numba", parts[0], int(s), invalid)), flush=True)
        print("END", flush=True)


def main():
    mode = sys.argv[1]
    invalid = os.environ.get("FUZZ_INVALID") == "1"
    if mode == "numba-serve":
        make_env("numba")
        import numba
        print(json.dumps({"ready": numba.__version__}), flush=True)
        serve(invalid)
        return
    d = sys.argv[2]
    make_env(mode)
    for s in sys.argv[3:]:
        print(json.dumps(run_one(mode, d, int(s), invalid)), flush=True)


if __name__ == "__main__":
    main()
