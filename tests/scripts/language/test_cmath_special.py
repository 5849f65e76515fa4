# cmath in kernels against CPython's cmath: every function on arguments
# whose parts are signed zeros, small and huge numbers, tiny (subnormal)
# numbers, infinities and NaNs (CPython's special-value tables and branch
# cuts), plus random arguments over the whole exponent range. complex128
# must agree within 2 ulps with the same signed zeros and the same NaNs;
# complex64 is computed in single precision and must agree within 8 ulps
# of CPython's answer rounded to float32. Also rect, polar, phase and
# log with a base.
# stdout: cmath special values ok
import cmath
import itertools
import math
import warnings

import numpy as np
from numba import cuda

warnings.simplefilter("ignore")

PARTS = [-0.0, 0.0, 1.0, -1.0, 1.5, -3.5, 0.7, -math.pi, 2.5e-310, -1e-300, 1e300, -2e300, 1e200,
         -math.inf, math.inf, math.nan]
rng = np.random.default_rng(3)
RANDOM = list(np.sign(rng.uniform(-1, 1, 24)) * 10.0 ** rng.uniform(-300, 300, 24)) + list(rng.uniform(-2, 2, 12))
UNARY = "sqrt exp log log10 sin cos tan sinh cosh tanh asin acos atan asinh acosh atanh".split()


def ulps(got, want, dtype):
    if math.isnan(want):
        return 0 if math.isnan(got) else math.inf
    if math.isnan(got) or math.copysign(1, got) != math.copysign(1, want) and (got != 0 or want != 0):
        return math.inf
    if got == want:
        return 0 if math.copysign(1, got) == math.copysign(1, want) else math.inf
    if math.isinf(got) or math.isinf(want):
        return math.inf
    ints = np.int32 if dtype == np.float32 else np.int64
    a = int(np.array([got], dtype).view(ints)[0])
    b = int(np.array([want], dtype).view(ints)[0])
    return abs(a - b)


def expected(fn, args, ctype):
    try:
        with np.errstate(all="ignore"):
            w = fn(*args)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    if isinstance(w, tuple):
        w = complex(*w)
    if ctype == np.complex64:
        with np.errstate(all="ignore"):
            w = complex(np.complex64(w))
        if any(math.isinf(p) for p in (w.real, w.imag)) and not any(math.isinf(p) for p in (w.real, w.imag)):
            return None
    return complex(w)


def make_kernel(name, nargs):
    ns = {"cmath": cmath, "cuda": cuda}
    params = ", ".join("a%d" % i for i in range(nargs))
    call = ", ".join("a%d[i]" % i for i in range(nargs))
    wrap = "complex(cmath.polar(%s)[0], cmath.polar(%s)[1])" % (call, call) if name == "polar" \
        else "cmath.%s(%s)" % (name, call)
    exec("def k(%s, o):\n    i = cuda.grid(1)\n    if i < o.size:\n        o[i] = %s\n" % (params, wrap), ns)
    return cuda.jit(ns["k"])


def check(name, fn, arg_lists, ctype, in_types, limit, relative=False):
    kept, want = [], []
    for args in arg_lists:
        with np.errstate(all="ignore"):
            args = tuple(t(a) for t, a in zip(in_types, args))
        w = expected(fn, tuple(complex(a) if np.iscomplexobj(a) else float(a) for a in args), ctype)
        if w is not None:
            kept.append(args)
            want.append(w)
    arrays = [np.array([a[i] for a in kept], in_types[i]) for i in range(len(in_types))]
    out = np.zeros(len(kept), ctype)
    make_kernel(name, len(in_types))[(len(kept) + 63) // 64, 64](*arrays, out)
    ftype = np.float32 if ctype == np.complex64 else np.float64
    for args, g, w in zip(kept, out, want):
        d = max(ulps(float(g.real), w.real, ftype), ulps(float(g.imag), w.imag, ftype))
        if (relative or on_gpu) and d > limit and cmath.isfinite(w) and w != 0:
            # A quotient's parts cancel (and on a GPU, a part near zero of
            # log or exp, computed through libdevice's hypot/log1p/sincos,
            # is not correctly rounded): compare the error with |w| instead.
            d = abs(complex(g) - w) / abs(w) / np.finfo(ftype).eps
        assert d <= limit, "%s%r (%s): got %r, CPython %r" % (name, args, ctype.__name__, complex(g), w)
    return len(kept)


total = 0
grid = [complex(x, y) for x, y in itertools.product(PARTS, PARTS)]
randoms = [complex(x, y) for x, y in itertools.product(RANDOM, RANDOM)]
# CPython's libm is nearly correctly rounded; libdevice's exp/sin/cos are
# within 1-2 ulps (CUDA's documented accuracy), so a GPU gets twice the room.
on_gpu = cuda.backend() == "cuda"
scale = 2 if on_gpu else 1
for ctype, limit in ((np.complex128, 2 * scale), (np.complex64, 8 * scale)):
    for name in UNARY:
        fn = getattr(cmath, name)
        total += check(name, fn, [(z,) for z in grid + randoms], ctype, (ctype,), limit)
    total += check("log", cmath.log, [(a, b) for a in grid[::7] for b in grid[::5]], ctype, (ctype, ctype), 8, True)
    total += check("polar", lambda z: cmath.polar(z), [(z,) for z in grid], ctype, (ctype,), limit)
    ftype = np.float32 if ctype == np.complex64 else np.float64
    total += check("rect", cmath.rect, [(z.real, z.imag) for z in grid], ctype, (ftype, ftype), limit)


@cuda.jit
def phase(a, o):
    i = cuda.grid(1)
    if i < a.size:
        o[i] = cmath.phase(a[i])


z = np.array(grid, np.complex128)
o = np.zeros(z.size)
phase[1, z.size](z, o)
for v, g in zip(z, o):
    try:
        w = cmath.phase(v)
    except (ValueError, OverflowError):
        continue
    exact = (math.isnan(g) and math.isnan(w)) or (g == w and math.copysign(1, g) == math.copysign(1, w))
    # libdevice's atan2 is within 2 ulps on a finite non-zero value (CUDA's documented accuracy).
    close = on_gpu and math.isfinite(w) and w != 0 and abs(g - w) <= 2 * np.spacing(abs(w))
    assert exact or close, (v, g, w)

assert total > 10000, total
print("cmath special values ok")
