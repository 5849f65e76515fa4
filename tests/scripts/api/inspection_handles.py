# Inspection and compile results cross the Python seam as TypeHandles, never
# as spellings parsed back in Python: a kernel's and an njit function's
# typemap, overloads and signatures, cuda.compile's return type, declared
# device functions' signatures and cache=True stats. The objects Python
# builds from the handles equal (and print as) the ones the engine's parser
# gives for the same spellings, on random signatures.
# stdout: inspection handles ok
import importlib
import os
import pickle
import random
import subprocess
import sys
import tempfile
import textwrap

import numpy as np

import _cuhost
from numba import cuda, njit
from numba.cuda import types
from cuda._type_spelling import from_handle, to_type

seed = random.randrange(1 << 30)
print("seed", seed)
rng = random.Random(seed)

SCALARS = [types.int32, types.int64, types.float32, types.float64, types.uint8, types.int16]


def is_handles(t):
    return isinstance(t, tuple) and all(isinstance(h, _cuhost.TypeHandle) for h in t)


def same_as_spelling(h):
    """The object made from a handle is the one its spelling names."""
    assert isinstance(h, _cuhost.TypeHandle), type(h)
    t = from_handle(h)
    old = to_type(h.spelling)
    assert t == old and repr(t) == repr(old) and str(t) == str(old), (t, old)
    return t


def kernel_case():
    a, b = rng.sample(SCALARS, 2)
    ndim = rng.choice([1, 2])
    layout = rng.choice(["C", "A"])
    arr = types.Array(a, ndim, layout)

    def k1(out, x, s):
        acc = x[0]
        pair = (acc, s)
        out[0] = pair[0] + pair[1]

    def k2(out, x, s):
        acc = x[0, 0]
        pair = (acc, s)
        out[0] = pair[0] + pair[1]

    k = cuda.jit(k1 if ndim == 1 else k2)

    sig = (types.Array(types.float64, 1, "C"), arr, b)
    k.compile(sig)
    compiled = k._compiled_signatures()
    assert len(compiled) == 1 and is_handles(compiled[0]), compiled
    assert tuple(same_as_spelling(h) for h in compiled[0]) == sig
    assert list(k.overloads) == [sig], list(k.overloads)
    ov = k.overloads[sig]
    assert ov.signature == types.Signature(types.none, sig), ov.signature
    info = k._nvptx(sig)
    assert is_handles(info["args"]) and isinstance(info["return"], _cuhost.TypeHandle)
    assert from_handle(info["return"]) is types.none
    raw = k._typemap(sig)
    assert raw and all(isinstance(h, _cuhost.TypeHandle) for h in raw.values()), raw
    typemap = ov._type_annotation.typemap
    assert typemap == {name: same_as_spelling(h) for name, h in raw.items()}
    assert typemap["x"] == arr and typemap["s"] == b and typemap["out"] == sig[0], typemap
    assert typemap["pair"] == types.Tuple([a, b]) or typemap["pair"] == types.UniTuple(a, 2), typemap["pair"]
    # A string signature is read by the engine, and its argument types come back as handles.
    again = cuda.jit(k.py_func)
    again.compile("void(float64[::1], %s, %s)" % (arr, b))
    assert list(again.overloads) == [sig], list(again.overloads)


def njit_case():
    a, b = rng.sample(SCALARS, 2)

    @njit
    def f(x, y):
        z = x * 2
        return z + y

    x, y = np.array([3], dtype=str(a))[0], np.array([4], dtype=str(b))[0]
    assert f(x, y) == x * 2 + y
    overloads = f._overloads()
    assert len(overloads) == 1
    args, ret = overloads[0]
    assert is_handles(args) and isinstance(ret, _cuhost.TypeHandle), overloads
    assert f.signatures == [(a, b)], f.signatures
    rett = same_as_spelling(ret)
    assert f.nopython_signatures == [types.Signature(rett, (a, b))], f.nopython_signatures
    assert tuple(same_as_spelling(h) for h in args) == (a, b)
    ov = f.overloads[(a, b)]
    assert ov.signature == types.Signature(rett, (a, b)) and ov.argtypes == (a, b)
    raw = f._typemap(args)
    assert all(isinstance(h, _cuhost.TypeHandle) for h in raw.values()), raw
    typemap = ov.type_annotation.typemap
    assert typemap == {name: same_as_spelling(h) for name, h in raw.items()}
    assert typemap["x"] == a and typemap["y"] == b and typemap["z"] is not None, typemap
    assert set(f.inspect_llvm()) == {(a, b)}


def compile_case():
    a = rng.choice([types.float32, types.float64, types.int32, types.int64])

    def g(x, y):
        return x + y

    code, resty = cuda.compile(g, (a, a), device=True)
    assert isinstance(code, str) and ".func" in code
    raw_code, raw_ret = _cuhost._compile(g, (a, a), device=True, fastmath=False, cc=(8, 0), opt=True, abi="c",
                                          abi_info=None, lineinfo=False, output="ptx", debug=False,
                                          launch_bounds=None)
    assert isinstance(raw_ret, _cuhost.TypeHandle), raw_ret
    assert resty == same_as_spelling(raw_ret)
    expected = a if a in (types.float32, types.float64) or a is types.int64 else types.int64
    assert resty == expected, (a, resty)
    assert cuda.compile_ptx(g, (a, a), device=True)[1] == resty


def declare_case():
    ret, arg = rng.sample(SCALARS, 2)
    fn = cuda.declare_device("ext_fn_%d" % rng.randrange(1000), types.Signature(ret, (arg, types.CPointer(arg))))
    r, args = fn._sig_handles
    assert isinstance(r, _cuhost.TypeHandle) and is_handles(args)
    assert fn.sig == types.Signature(ret, (arg, types.CPointer(arg))), fn.sig
    assert repr(fn.sig) == repr(types.Signature(ret, (arg, types.CPointer(arg))))


def stats_case():
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "stats_mod.py"), "w") as f:
        f.write(textwrap.dedent('''
            from numba import cuda

            @cuda.jit(cache=True)
            def add(r, x):
                r[0] = x[0] + 1
        '''))
    sys.path.insert(0, folder)
    scalar = {np.int32: types.int32, np.int64: types.int64, np.float32: types.float32, np.float64: types.float64}
    dtypes = rng.sample(sorted(scalar, key=str), 2)
    expected = {(types.Array(scalar[d], 1, "C"),) * 2 for d in dtypes}
    mod = importlib.import_module("stats_mod")
    for d in dtypes:
        mod.add[1, 1](np.zeros(1, d), np.ones(1, d))
    stats = mod.add.stats
    assert set(stats.cache_misses) == expected and not stats.cache_hits, (stats.cache_misses, expected)
    del sys.modules["stats_mod"]
    again = importlib.import_module("stats_mod")
    assert again.add is not mod.add
    for d in dtypes:
        r = np.zeros(1, d)
        again.add[1, 1](r, np.full(1, 2, d))
        assert r[0] == 3
    stats = again.add.stats
    assert set(stats.cache_hits) == expected and not stats.cache_misses, (stats.cache_hits, expected)
    assert all(n == 1 for n in stats.cache_hits.values())


def pickle_case():
    """An njit dispatcher pickled with its compiled signatures (as cuda.types
    objects: handles live in one process) compiles them again in another."""
    a, b = rng.sample(SCALARS, 2)

    def mul(x, y):
        return x * y

    f = njit(mul)
    f.compile((a, b))
    data = pickle.dumps(f)
    child = ("import pickle, sys\nf = pickle.loads(sys.stdin.buffer.read())\n"
             "print(repr(f.signatures), f(3, 2))")
    p = subprocess.run([sys.executable, "-c", child], input=data, capture_output=True)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout.decode().split("\n")[0].startswith(repr([(a, b)]) + " "), (p.stdout, a, b)


for _ in range(4):
    kernel_case()
    njit_case()
    compile_case()
    declare_case()
stats_case()
pickle_case()
print("inspection handles ok")
