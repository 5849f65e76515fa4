# libdevice's rounding-mode functions (dadd_rd, fmul_ru, fmaf_rz, dsqrt_rd,
# double2float_ru, float2int_rd, ll2float_rz, ...) give exactly the IEEE
# result in their mode: checked against the exact rational result rounded in
# Python, on random operands whose results are mostly inexact.
# timeout: 600
import math
from fractions import Fraction


def F(v):
    """The exact value of a Python or NumPy number (or a Fraction)."""
    if isinstance(v, Fraction):
        return v
    if isinstance(v, (int, np.integer)):
        return Fraction(int(v))
    return Fraction(float(v))

import numpy as np

from _harness import call

rng = np.random.default_rng(23)
n = 200
MODES = {"rn": "nearest", "rz": "zero", "rd": "down", "ru": "up"}


def neighbours(v, dtype):
    """The representable values lo <= v <= hi of dtype closest to v (finite v)."""
    r = dtype(float(v))
    lo = hi = r
    while F(float(lo)) > v:
        lo = np.nextafter(lo, dtype(-np.inf))
    while F(float(hi)) < v:
        hi = np.nextafter(hi, dtype(np.inf))
    if F(float(lo)) < v < F(float(hi)):
        return lo, hi
    return (lo, lo) if F(float(lo)) == v else (hi, hi)


def rounded(v, dtype, mode):
    lo, hi = neighbours(v, dtype)
    if lo == hi:
        return lo
    if mode == "rd":
        return lo
    if mode == "ru":
        return hi
    if mode == "rz":
        return lo if v > 0 else hi
    dl, dh = v - F(float(lo)), F(float(hi)) - v
    if dl != dh:
        return lo if dl < dh else hi
    return lo if int(np.asarray(lo).view(np.uint64 if dtype is np.float64 else np.uint32)) % 2 == 0 else hi


def check(name, got, want):
    got, want = np.asarray(got), np.asarray(want, dtype=got.dtype)
    same = (got == want) | (np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64)))
    if not same.all():
        i = int(np.argmin(same))
        raise AssertionError("%s: got %r, want %r at %d" % (name, got[i], want[i], i))


a = rng.uniform(-10, 10, n) * 10.0 ** rng.integers(-5, 6, n)
b = rng.uniform(-10, 10, n) * 10.0 ** rng.integers(-5, 6, n)
c = rng.uniform(-10, 10, n)
pos = np.abs(a)
exact = {
    "add": lambda x, y: F(x) + F(y), "mul": lambda x, y: F(x) * F(y), "div": lambda x, y: F(x) / F(y),
}
inexact = 0
for mode in MODES:
    for op, ref in exact.items():
        for prefix, dtype in (("d", np.float64), ("f", np.float32)):
            x, y = a.astype(dtype), b.astype(dtype)
            got = call("%s%s_%s" % (prefix, op, mode), x, y)
            want = [rounded(ref(p, q), dtype, mode) for p, q in zip(x, y)]
            check("%s%s_%s" % (prefix, op, mode), got, want)
            inexact += sum(F(float(g)) != ref(p, q) for g, p, q in zip(got, x, y))
    for name, dtype in (("fma_", np.float64), ("fmaf_", np.float32)):
        x, y, z = a.astype(dtype), b.astype(dtype), c.astype(dtype)
        check(name + mode, call(name + mode, x, y, z),
              [rounded(F(p) * F(q) + F(r), dtype, mode) for p, q, r in zip(x, y, z)])
    for name, dtype in (("drcp_", np.float64), ("frcp_", np.float32)):
        x = a.astype(dtype)
        check(name + mode, call(name + mode, x), [rounded(1 / F(p), dtype, mode) for p in x])
    for name, dtype in (("dsqrt_", np.float64), ("fsqrt_", np.float32)):
        x = pos.astype(dtype)
        got = call(name + mode, x)
        # sqrt rounded in `mode`: the neighbours of the exact root bracket it.
        for g, p in zip(got, x):
            lo, hi = neighbours(F(math.sqrt(float(p))), dtype)
            cands = {lo, hi, np.nextafter(lo, dtype(-np.inf)), np.nextafter(hi, dtype(np.inf))}
            below = max((q for q in cands if F(float(q)) ** 2 <= F(p)), key=float)
            above = min((q for q in cands if F(float(q)) ** 2 >= F(p)), key=float)
            if below == above:
                want = below
            elif mode in ("rd", "rz"):
                want = below
            elif mode == "ru":
                want = above
            else:  # the square of the midpoint decides
                mid = (F(float(below)) + F(float(above))) / 2
                want = below if mid * mid > F(p) else above
            assert g == want, (name + mode, p, g, want)
    check("double2float_" + mode, call("double2float_" + mode, a / 3), [rounded(F(p), np.float32, mode) for p in a / 3])
assert inexact > n, "the operands should mostly give inexact results"

# Float -> integer: the integral value in the mode, saturating.
to_int = {"rn": np.rint, "rz": np.trunc, "rd": np.floor, "ru": np.ceil}
vals = rng.uniform(-1e5, 1e5, n)
vals[:8] = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1e12, -1e12]
for mode, f in to_int.items():
    want32 = np.clip(f(vals), -2**31, 2**31 - 1)
    check("double2int_" + mode, call("double2int_" + mode, vals), want32.astype(np.int32))
    check("float2ll_" + mode, call("float2ll_" + mode, vals.astype(np.float32)),
          f(vals.astype(np.float32).astype(np.float64)).astype(np.int64))
    wantu = np.clip(f(vals), 0, 2**32 - 1)
    check("double2uint_" + mode, call("double2uint_" + mode, vals), wantu.astype(np.uint32))

# Integer -> float: the integer rounded in the mode.
big = rng.integers(-2**62, 2**62, n, dtype=np.int64)
ubig = big.view(np.uint64) | np.uint64(1)
for mode in MODES:
    check("ll2double_" + mode, call("ll2double_" + mode, big), [rounded(F(int(v)), np.float64, mode) for v in big])
    check("ll2float_" + mode, call("ll2float_" + mode, big), [rounded(F(int(v)), np.float32, mode) for v in big])
    check("ull2double_" + mode, call("ull2double_" + mode, ubig), [rounded(F(int(v)), np.float64, mode) for v in ubig])
    small = (big >> 33).astype(np.int32)
    check("int2float_" + mode, call("int2float_" + mode, small), [rounded(F(int(v)), np.float32, mode) for v in small])
print("libdevice rounding ok")
# stdout: libdevice rounding ok
