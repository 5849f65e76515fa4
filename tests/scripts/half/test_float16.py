# float16 in kernels: arrays and scalar arguments, + - * / // % and unary -,
# abs, comparisons, NumPy's promotion with ints and wider floats, the
# cuda.fp16 intrinsics, math.* on float16, and casts to and from integers
# and other floats, checked bit for bit against NumPy's float16 on random
# data; the PTX holds native f16 instructions (assembled by ptxas).
# stdout: float16 ok
import math
import shutil
import subprocess
import tempfile

import numpy as np
from numba import cuda
from numba.cuda.types import f2, b1, float16

rng = np.random.default_rng(16)
n = 1000


def rand16(lo=-60.0, hi=60.0):
    return rng.uniform(lo, hi, n).astype(np.float16)


def same_bits(name, got, want):
    assert got.dtype == want.dtype, f"{name}: dtype {got.dtype} != {want.dtype}"
    g = got.view(np.uint16 if got.itemsize == 2 else np.uint32 if got.itemsize == 4 else np.uint64)
    w = want.view(g.dtype)
    nan = np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64))
    bad = np.flatnonzero((g != w) & ~nan)
    assert bad.size == 0, f"{name}: element {bad[0]}: {got[bad[0]]!r} != {want[bad[0]]!r}"


a, b = rand16(), rand16()
b[::7] = 0  # division by zero: inf and nan like NumPy

# --- arithmetic -------------------------------------------------------------


@cuda.jit
def arith(a, b, add, sub, mul, div, neg, ab, fdiv, mod):
    i = cuda.grid(1)
    if i < a.size:
        add[i] = a[i] + b[i]
        sub[i] = a[i] - b[i]
        mul[i] = a[i] * b[i]
        div[i] = a[i] / b[i]
        neg[i] = -a[i]
        ab[i] = abs(a[i])
        fdiv[i] = a[i] // b[i]
        mod[i] = a[i] % b[i]


outs = [np.zeros(n, np.float16) for _ in range(8)]
with np.errstate(all="ignore"):
    arith[(n + 127) // 128, 128](a, b, *outs)
    for name, got, want in zip(["+", "-", "*", "/", "neg", "abs"], outs, [a + b, a - b, a * b, a / b, -a, abs(a)]):
        same_bits(name, got, want)
    nz = b != 0  # // and % by zero follow the float32 kernels' rule, not NumPy's
    same_bits("//", outs[6][nz], (a // b)[nz])
    same_bits("%", outs[7][nz], (a % b)[nz])


@cuda.jit
def compare(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = a[i] < b[i]
        out[i, 1] = a[i] <= b[i]
        out[i, 2] = a[i] > b[i]
        out[i, 3] = a[i] >= b[i]
        out[i, 4] = a[i] == b[i]
        out[i, 5] = a[i] != b[i]


c = b.copy()
c[::3] = a[::3]  # equal pairs too
cmp_out = np.zeros((n, 6), np.bool_)
compare[(n + 127) // 128, 128](a, c, cmp_out)
assert (cmp_out == np.stack([a < c, a <= c, a > c, a >= c, a == c, a != c], axis=1)).all(), "comparisons"


# Scalar arguments and NumPy's promotion: float16 with int8 stays float16,
# with int16 gives float32, with int32/int64/float64 gives float64.
def mixed(out, x, y):
    out[0] = x + y
    out[1] = x * y
    out[2] = x / y


for ty in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.float32, np.float64):
    res = np.result_type(np.float16, ty)
    k = cuda.jit(mixed)
    x, y = np.float16(rng.uniform(-3, 3)), ty(rng.integers(1, 100))
    got = np.zeros(3, res)
    k[1, 1](got, x, y)
    want = np.array([x + y, x * y, x / y], dtype=res)
    same_bits(f"float16 with {np.dtype(ty).name}", got, want)

# --- cuda.fp16 intrinsics ---------------------------------------------------


@cuda.jit
def intrinsics(a, b, c, out, cmp):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = cuda.fp16.hadd(a[i], b[i])
        out[1, i] = cuda.fp16.hsub(a[i], b[i])
        out[2, i] = cuda.fp16.hmul(a[i], b[i])
        out[3, i] = cuda.fp16.hdiv(a[i], b[i])
        out[4, i] = cuda.fp16.hneg(a[i])
        out[5, i] = cuda.fp16.habs(a[i])
        out[6, i] = cuda.fp16.hfma(a[i], b[i], c[i])
        out[7, i] = cuda.fp16.hmax(a[i], b[i])
        out[8, i] = cuda.fp16.hmin(a[i], b[i])
        out[9, i] = cuda.fp16.hmul(a[i], 2)  # literals convert to float16
        cmp[0, i] = cuda.fp16.heq(a[i], b[i])
        cmp[1, i] = cuda.fp16.hne(a[i], b[i])
        cmp[2, i] = cuda.fp16.hlt(a[i], b[i])
        cmp[3, i] = cuda.fp16.hge(a[i], b[i])


b2 = rand16()
cc = rand16()
out = np.zeros((10, n), np.float16)
cmp = np.zeros((4, n), np.bool_)
intrinsics[(n + 127) // 128, 128](a, b2, cc, out, cmp)
fma = (a.astype(np.float64) * b2 + cc).astype(np.float16)  # exact product, one rounding
for k, (name, want) in enumerate([("hadd", a + b2), ("hsub", a - b2), ("hmul", a * b2), ("hdiv", a / b2),
                                  ("hneg", -a), ("habs", abs(a)), ("hfma", fma), ("hmax", np.fmax(a, b2)),
                                  ("hmin", np.fmin(a, b2)), ("hmul literal", a * np.float16(2))]):
    same_bits(name, out[k], want)
assert (cmp == np.stack([a == b2, a != b2, a < b2, a >= b2])).all(), "fp16 comparisons"

# Unary functions: computed in float and rounded once, as NumPy does for float16.
pos = rng.uniform(0.1, 9.0, n).astype(np.float16)


@cuda.jit
def unary(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = cuda.fp16.hsqrt(x[i])
        out[1, i] = cuda.fp16.hceil(x[i])
        out[2, i] = cuda.fp16.hfloor(x[i])
        out[3, i] = cuda.fp16.htrunc(x[i])
        out[4, i] = cuda.fp16.hrint(x[i])
        out[5, i] = cuda.fp16.hrcp(x[i])
        out[6, i] = cuda.fp16.hsin(x[i])
        out[7, i] = cuda.fp16.hlog(x[i])
        out[8, i] = cuda.fp16.hexp2(x[i])
        out[9, i] = math.sqrt(x[i])  # math.* on float16 stays float16
        out[10, i] = math.cos(x[i])


u = np.zeros((11, n), np.float16)
unary[(n + 127) // 128, 128](pos, u)
f32 = pos.astype(np.float32)
exact = [("hsqrt", np.sqrt(pos)), ("hceil", np.ceil(pos)), ("hfloor", np.floor(pos)), ("htrunc", np.trunc(pos)),
         ("hrint", np.rint(pos)), ("hrcp", (1 / f32).astype(np.float16)), ("math.sqrt", np.sqrt(pos))]
for name, want in exact:
    same_bits(name, u[[e[0] for e in exact].index(name) if name != "math.sqrt" else 9], want)
for name, row, want in [("hsin", 6, np.sin(f32)), ("hlog", 7, np.log(f32)), ("hexp2", 8, np.exp2(f32)),
                        ("math.cos", 10, np.cos(f32))]:
    ulp = np.spacing(want.astype(np.float16)).astype(np.float64)
    assert (np.abs(u[row].astype(np.float64) - want) <= ulp).all(), name  # within one float16 ulp

# --- casts -------------------------------------------------------------------


@cuda.jit
def casts(h, d, i8, i32, u16, out16, outd, from_d, from_i):
    i = cuda.grid(1)
    if i < h.size:
        outd[i] = float(h[i])  # exact
        out16[i] = np.float16(d[i])  # float64 -> float16 rounds once
        i8[i] = np.int8(h[i] / np.float16(16))
        i32[i] = np.int32(h[i])
        u16[i] = np.uint16(abs(h[i]))
        from_d[i] = np.float16(np.float32(d[i]))
        from_i[i] = np.float16(i32[i] * 37)


h = rand16(-2000, 2000)
d = rng.uniform(-70000, 70000, n)
d[:50] = (np.float16(rng.uniform(1, 2, 50)).astype(np.float64) + 2.0 ** -11 * (1 + 2.0 ** -30))  # near ties
res = [np.zeros(n, t) for t in (np.int8, np.int32, np.uint16, np.float16, np.float64, np.float16, np.float16)]
casts[(n + 127) // 128, 128](h, d, *res)
same_bits("float16 -> float64", res[4], h.astype(np.float64))
with np.errstate(over="ignore"):
    same_bits("float64 -> float16", res[3], d.astype(np.float16))
    same_bits("float32 -> float16", res[5], d.astype(np.float32).astype(np.float16))
# numba-cuda converts float16 to integers rounding to nearest even (cvt.rni).
assert (res[0] == np.rint(h / np.float16(16)).astype(np.int8)).all(), "float16 -> int8"
assert (res[1] == np.rint(h).astype(np.int32)).all(), "float16 -> int32"
assert (res[2] == np.rint(abs(h)).astype(np.uint16)).all(), "float16 -> uint16"
with np.errstate(over="ignore"):
    same_bits("int32 -> float16", res[6], (res[1].astype(np.int64) * 37).astype(np.float16))

# A float16 scalar type object and the float16 signature spelling.
assert str(float16) == "float16" and f2 is float16

# --- PTX: native half instructions -----------------------------------------


def simple_add(r, x, y):
    r[0] = x + y


def simple_cmp(r, x, y):
    r[0] = x < y


def simple_abs(r, x):
    r[0] = abs(x)


def simple_fma(r, x, y):
    r[0] = cuda.fp16.hfma(x, y, x)


def to_f16(x):
    return np.float16(x)


ptx_checks = [(simple_add, (f2[:], f2, f2), "add.f16"), (simple_cmp, (b1[:], f2, f2), "setp.lt.f16"),
              (simple_abs, (f2[:], f2), "abs.f16"), (simple_fma, (f2[:], f2, f2), "fma.rn.f16")]
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
for fn, sig, instr in ptx_checks:
    ptx, _ = cuda.compile_ptx(fn, sig)
    assert instr in ptx, f"{fn.__name__}: {instr} not in the PTX"
for ty, text in [(cuda.types.int32, "cvt.rn.f16.s32"), (cuda.types.uint8, "cvt.rn.f16.u8")]:
    ptx, _ = cuda.compile_ptx(to_f16, (ty,), device=True)
    assert text in ptx, text
    if shutil.os.path.exists(ptxas):
        with tempfile.NamedTemporaryFile("w", suffix=".ptx") as f:
            f.write(ptx)
            f.flush()
            subprocess.run([ptxas, "--gpu-name", "sm_90", "-c", f.name, "-o", "/dev/null"], check=True)

print("float16 ok")
