# numba.cuda.libdevice in kernels, checked against NumPy / math / Python
# integers on random data: math functions in float32 and float64, functions
# returning tuples (sincos, frexp, modf, remquo...), bit casts, integer
# helpers, conversions with round-to-nearest. On the CPU backend this runs
# NVIDIA's libdevice compiled for the host.
# timeout: 600
import math
from fractions import Fraction as F

import numpy as np
from numba.cuda import libdevice
from numba.cuda.libdevicefuncs import functions

from _harness import call

rng = np.random.default_rng(17)
n = 256


def close(name, got, want, rtol, atol=0.0):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        bad = np.argmax(~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True))
        raise AssertionError("%s: got %r, want %r at %d" % (name, got[bad], want[bad], bad))


def equal(name, got, want):
    got, want = np.asarray(got), np.asarray(want)
    if not np.array_equal(got, want):
        bad = np.argmax(got != want)
        raise AssertionError("%s: got %r, want %r at %d" % (name, got[bad], want[bad], bad))


# Every function of the table is a device-only attribute of the module.
assert len(functions) >= 330, len(functions)
for key in functions:
    assert hasattr(libdevice, key[5:]), key
try:
    libdevice.sinf(1.0)
except TypeError as e:
    assert "inside a kernel" in str(e), e
else:
    raise AssertionError("libdevice.sinf ran on the host")

# --- unary math, float64 and float32 --------------------------------------
x = rng.uniform(-4, 4, n)
pos = rng.uniform(0.01, 20, n)
unit = rng.uniform(-0.99, 0.99, n)
unary = {
    "sin": (np.sin, x), "cos": (np.cos, x), "tan": (np.tan, x), "asin": (np.arcsin, unit),
    "acos": (np.arccos, unit), "atan": (np.arctan, x), "sinh": (np.sinh, x), "cosh": (np.cosh, x),
    "tanh": (np.tanh, x), "asinh": (np.arcsinh, x), "acosh": (np.arccosh, pos + 1), "atanh": (np.arctanh, unit),
    "exp": (np.exp, x), "exp2": (np.exp2, x), "exp10": (lambda v: 10.0 ** v, x), "expm1": (np.expm1, x),
    "log": (np.log, pos), "log2": (np.log2, pos), "log10": (np.log10, pos), "log1p": (np.log1p, pos),
    "sqrt": (np.sqrt, pos), "rsqrt": (lambda v: 1 / np.sqrt(v), pos), "cbrt": (np.cbrt, x),
    "rcbrt": (lambda v: 1 / np.cbrt(v), pos), "fabs": (np.abs, x), "floor": (np.floor, x), "ceil": (np.ceil, x),
    "trunc": (np.trunc, x), "rint": (np.rint, x), "nearbyint": (np.rint, x),
    "round": (lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5), x),
    "erf": (np.vectorize(math.erf), x), "erfc": (np.vectorize(math.erfc), x),
    "lgamma": (np.vectorize(math.lgamma), pos), "tgamma": (np.vectorize(math.gamma), rng.uniform(0.1, 6, n)),
    "sinpi": (lambda v: np.sin(np.pi * v), x), "cospi": (lambda v: np.cos(np.pi * v), x),
    "normcdf": (lambda v: 0.5 * np.vectorize(math.erfc)(-v / math.sqrt(2)), x),
    "logb": (lambda v: np.floor(np.log2(np.abs(v))), pos),
}
for name, (ref, arg) in unary.items():
    close(name, call(name, arg), ref(arg), rtol=1e-14, atol=1e-15)
    close(name + "f", call(name + "f", arg.astype(np.float32)), ref(arg.astype(np.float32).astype(np.float64)),
          rtol=2e-6, atol=2e-6)

# Huge arguments take libdevice's Payne-Hanek reduction (its tables of 2/pi).
huge = rng.uniform(1, 10, n) * 10.0 ** rng.integers(5, 300, n)
close("sin huge", call("sin", huge), np.sin(huge), rtol=0, atol=2e-16)
close("cos huge", call("cos", huge), np.cos(huge), rtol=0, atol=2e-16)
hugef = (rng.uniform(1, 10, n) * 10.0 ** rng.integers(4, 37, n)).astype(np.float32)
close("sinf huge", call("sinf", hugef), np.sin(hugef.astype(np.float64)), rtol=0, atol=2e-7)

# Inverses: erf(erfinv(y)) == y, normcdf(normcdfinv(p)) == p.
y = rng.uniform(-0.95, 0.95, n)
close("erfinv", call("erf", call("erfinv", y)), y, rtol=1e-14)
close("erfcinv", call("erfc", call("erfcinv", y + 1)), y + 1, rtol=1e-14)
p = rng.uniform(0.01, 0.99, n)
close("normcdfinv", call("normcdf", call("normcdfinv", p)), p, rtol=1e-14)
close("erfcx", call("erfcx", pos), np.exp(pos * pos) * np.vectorize(math.erfc)(pos), rtol=1e-12)

# --- binary and ternary math ----------------------------------------------
a = rng.uniform(-5, 5, n)
b = rng.uniform(0.5, 5, n) * rng.choice([-1, 1], n)
binary = {
    "atan2": np.arctan2, "hypot": np.hypot, "fmod": np.fmod, "remainder": np.vectorize(math.remainder),
    "copysign": np.copysign, "fmin": np.fmin, "fmax": np.fmax, "fdim": lambda u, v: np.maximum(u - v, 0),
    "nextafter": np.nextafter,
}
for name, ref in binary.items():
    close(name, call(name, a, b), ref(a, b), rtol=1e-15)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    close(name + "f", call(name + "f", af, bf), ref(af, bf), rtol=2e-7)
close("pow", call("pow", pos, a), np.power(pos, a), rtol=1e-14)
close("powi", call("powi", pos, np.arange(n) % 9 - 4), np.power(pos, (np.arange(n) % 9 - 4).astype(float)),
      rtol=1e-14)
c = rng.uniform(-5, 5, n)
equal("fma", call("fma", a, b, c), [float(F(u) * F(v) + F(w)) for u, v, w in zip(a, b, c)])
close("ldexp", call("ldexp", a, np.arange(n) % 20 - 10), np.ldexp(a, np.arange(n) % 20 - 10), rtol=0)
close("scalbn", call("scalbn", a, np.arange(n) % 20 - 10), np.ldexp(a, np.arange(n) % 20 - 10), rtol=0)
equal("ilogb", call("ilogb", pos), np.floor(np.log2(pos)).astype(np.int32))
equal("llrint", call("llrint", a * 100), np.rint(a * 100).astype(np.int64))
equal("llround", call("llround", a * 100), (np.sign(a) * np.floor(np.abs(a * 100) + 0.5)).astype(np.int64))

# --- out-parameters come back as tuples -------------------------------------
s, co = call("sincos", x)
close("sincos", s, np.sin(x), rtol=1e-15, atol=1e-16)
close("sincos", co, np.cos(x), rtol=1e-15, atol=1e-16)
s, co = call("sincosf", x.astype(np.float32))
close("sincosf", s, np.sin(x.astype(np.float32)), rtol=2e-6, atol=1e-7)
close("sincosf", co, np.cos(x.astype(np.float32)), rtol=2e-6, atol=1e-7)
s, co = call("sincospi", x)
close("sincospi", s, np.sin(np.pi * x), rtol=1e-14, atol=1e-15)
close("sincospi", co, np.cos(np.pi * x), rtol=1e-14, atol=1e-15)
m, e = call("frexp", a)
mm, ee = np.frexp(a)
equal("frexp", m, mm)
equal("frexp", e, ee)
assert e.dtype == np.int32
m, e = call("frexpf", a.astype(np.float32))
mm, ee = np.frexp(a.astype(np.float32))
equal("frexpf", m, mm)
equal("frexpf", e, ee)
frac, whole = call("modf", a)
ff, ww = np.modf(a)
equal("modf", frac, ff)
equal("modf", whole, ww)
r, q = call("remquo", a, b)
equal("remquo", r, np.vectorize(math.remainder)(a, b))
quot = np.rint(a / b).astype(np.int64)
equal("remquo quotient bits", q & 7, quot & 7)
equal("remquo quotient sign", np.sign(q[q != 0]), np.sign(quot[q != 0]))

# --- bit casts -----------------------------------------------------------
equal("double_as_longlong", call("double_as_longlong", a), a.view(np.int64))
equal("longlong_as_double", call("longlong_as_double", a.view(np.int64)), a)
af = a.astype(np.float32)
equal("float_as_int", call("float_as_int", af), af.view(np.int32))
equal("int_as_float", call("int_as_float", af.view(np.int32)), af)
bits = a.view(np.uint64)
equal("double2hiint", call("double2hiint", a), (bits >> 32).astype(np.uint32).view(np.int32))
equal("double2loint", call("double2loint", a), (bits & 0xFFFFFFFF).astype(np.uint32).view(np.int32))
equal("hiloint2double", call("hiloint2double", (bits >> 32).astype(np.uint32).view(np.int32),
                             (bits & 0xFFFFFFFF).astype(np.uint32).view(np.int32)), a)
h = call("float2half_rn", af)
equal("float2half_rn", h, af.astype(np.float16).view(np.uint16))
equal("half2float", call("half2float", h), af.astype(np.float16).astype(np.float32))

# --- integer helpers -------------------------------------------------------
i = rng.integers(-2**31, 2**31, n, dtype=np.int64)
j = rng.integers(-2**31, 2**31, n, dtype=np.int64)
k = rng.integers(-2**31, 2**31, n, dtype=np.int64)
u, v, w = (z & 0xFFFFFFFF for z in (i, j, k))


def wrap32(z):
    return ((np.asarray(z, dtype=object) + 2**31) % 2**32 - 2**31).astype(np.int64)


equal("sad", call("sad", i, j, k), wrap32(np.abs(i - j) + k))
equal("usad", call("usad", u, v, w), (np.abs(u - v) + w) & 0xFFFFFFFF)
equal("hadd", call("hadd", i, j), (i + j) >> 1)
equal("rhadd", call("rhadd", i, j), (i + j + 1) >> 1)
equal("uhadd", call("uhadd", u, v), (u + v) >> 1)
equal("urhadd", call("urhadd", u, v), (u + v + 1) >> 1)
lo24 = lambda z: ((z & 0xFFFFFF) ^ 0x800000) - 0x800000  # noqa: E731
equal("mul24", call("mul24", i, j), wrap32(lo24(i) * lo24(j)))
equal("umul24", call("umul24", u, v), [(int(p) & 0xFFFFFF) * (int(q) & 0xFFFFFF) & 0xFFFFFFFF for p, q in zip(u, v)])
equal("mulhi", call("mulhi", i, j), (i * j) >> 32)
equal("umulhi", call("umulhi", u, v), [(int(p) * int(q)) >> 32 for p, q in zip(u, v)])
I = [int(z) for z in rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64)]
J = [int(z) for z in rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64)]
equal("mul64hi", call("mul64hi", np.array(I), np.array(J)), np.array([(p * q) >> 64 for p, q in zip(I, J)]))
U = [z % 2**64 for z in I]
V = [z % 2**64 for z in J]
equal("umul64hi", call("umul64hi", np.array(U, dtype=np.uint64), np.array(V, dtype=np.uint64)),
      np.array([(p * q) >> 64 for p, q in zip(U, V)], dtype=np.uint64))
equal("popc", call("popc", u), [bin(z).count("1") for z in u])
equal("popcll", call("popcll", np.array(U, dtype=np.uint64)), [bin(z).count("1") for z in U])
equal("clz", call("clz", i), [32 - int(z).bit_length() for z in u])
equal("clzll", call("clzll", np.array(I)), [64 - z.bit_length() for z in U])
equal("ffs", call("ffs", i), [(int(z) & -int(z)).bit_length() for z in u])
equal("ffsll", call("ffsll", np.array(I)), [(z & -z).bit_length() for z in U])
equal("brev", call("brev", i).astype(np.int64) & 0xFFFFFFFF, [int(format(int(z), "032b")[::-1], 2) for z in u])
equal("brevll", call("brevll", np.array(I)).view(np.uint64),
      np.array([int(format(z, "064b")[::-1], 2) for z in U], dtype=np.uint64))


def byte_perm(x, y, s):
    both = (int(y) & 0xFFFFFFFF) << 32 | (int(x) & 0xFFFFFFFF)
    out = 0
    for b in range(4):
        out |= ((both >> (8 * ((int(s) >> (4 * b)) & 7))) & 0xFF) << (8 * b)
    return out


equal("byte_perm", call("byte_perm", i, j, k).astype(np.int64) & 0xFFFFFFFF,
      [byte_perm(p, q, r) for p, q, r in zip(i, j, k)])
equal("min", call("min", i, j), np.minimum(i, j))
equal("umax", call("umax", u, v), np.maximum(u, v))
equal("llmin", call("llmin", np.array(I), np.array(J)), np.minimum(I, J))
equal("ullmax", call("ullmax", np.array(U, dtype=np.uint64), np.array(V, dtype=np.uint64)),
      np.maximum(np.array(U, dtype=np.uint64), np.array(V, dtype=np.uint64)))
equal("abs", call("abs", i), np.abs(i))
equal("llabs", call("llabs", np.array(I)), np.abs(np.array(I)))

# --- conversions (round to nearest even) and classification ---------------
big = rng.uniform(-1e6, 1e6, n)
equal("double2int_rn", call("double2int_rn", big), np.rint(big).astype(np.int32))
equal("double2ll_rn", call("double2ll_rn", big * 1e6), np.rint(big * 1e6).astype(np.int64))
equal("float2uint_rz", call("float2uint_rz", np.abs(big).astype(np.float32)),
      np.trunc(np.abs(big).astype(np.float32)).astype(np.uint32))
equal("double2float_rn", call("double2float_rn", big / 7), (big / 7).astype(np.float32))
equal("ll2double_rn", call("ll2double_rn", np.array(I)), np.array(I, dtype=np.float64))
equal("ull2float_rn", call("ull2float_rn", np.array(U, dtype=np.uint64)), np.array(U, dtype=np.float32))
# Out-of-range conversions saturate; NaN gives the most negative int (what
# the H100 returns for cvt.rzi.s32.f64; the CPU backend does the same).
equal("double2int_rz saturates", call("double2int_rz", np.array([1e20, -1e20, np.nan])),
      np.array([2**31 - 1, -2**31, -2**31]))
special = np.array([0.0, -0.0, 1.5, np.inf, -np.inf, np.nan])
equal("isnand", call("isnand", special) != 0, np.isnan(special))
equal("isinfd", call("isinfd", special) != 0, np.isinf(special))
equal("isfinited", call("isfinited", special) != 0, np.isfinite(special))
equal("signbitd", call("signbitd", special) != 0, np.signbit(special))
equal("finitef", call("finitef", special.astype(np.float32)) != 0, np.isfinite(special))
equal("saturatef", call("saturatef", np.array([-1.0, 0.25, 2.0, np.nan], dtype=np.float32)), [0.0, 0.25, 1.0, 0.0])
print("libdevice values ok")
# stdout: libdevice values ok
