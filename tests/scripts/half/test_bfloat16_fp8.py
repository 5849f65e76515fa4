# bfloat16 and fp8 in kernels: bfloat16 arithmetic, comparisons and
# conversions (round to nearest even, and the _rz/_rd/_ru bindings) checked
# bit for bit against a reference built here from float32/float64 bits and
# against ml_dtypes where it is installed; ml_dtypes bfloat16 device arrays;
# fp8 E4M3/E5M2/E8M0 encodings against ml_dtypes' float8 types; and the
# TypingErrors of arithmetic on fp8 values.
# stdout: bfloat16 fp8 ok
import numpy as np
from numba import cuda
from numba.cuda import float32, float64, int32, uint16
from numba.cuda.bf16 import (bfloat16, hadd, hmul_sat, hfma, hlt, hmax_nan, hisinf, bfloat16_as_uint16,
                             uint16_as_bfloat16, float32_to_bfloat16_rz, float32_to_bfloat16_rd,
                             float32_to_bfloat16_ru, float64_to_bfloat16, bfloat16_to_int32_rn,
                             bfloat16_to_int32_rd, int32_to_bfloat16_ru)
from numba.cuda._internal.cuda_fp8 import fp8_e4m3, fp8_e5m2, fp8_e8m0, cvt_float_to_fp8, cvt_float_to_e8m0

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

rng = np.random.default_rng(1616)
n = 2000


def bf16_bits_of_f32(x, mode="n"):
    """Reference: float32 -> bfloat16 bits with rounding `mode`, from the bits."""
    u = np.atleast_1d(np.asarray(x, np.float32)).view(np.uint32).astype(np.uint64)
    sign, mag = u & 0x80000000, u & 0x7FFFFFFF
    trunc, low = mag >> 16, mag & 0xFFFF
    neg = sign != 0
    if mode == "n":
        up = (low > 0x8000) | ((low == 0x8000) & ((trunc & 1) == 1))
    elif mode == "z":
        up = np.zeros_like(neg)
    elif mode == "u":
        up = (low != 0) & ~neg
    else:
        up = (low != 0) & neg
    r = (trunc + up) | (sign >> 16)
    r = np.where(mag > 0x7F800000, 0x7FC0, r)
    return r.astype(np.uint16)


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


a = rng.uniform(-100, 100, n).astype(np.float32)
b = rng.uniform(-100, 100, n).astype(np.float32)
ab = bf16_to_f32(bf16_bits_of_f32(a))  # the bfloat16 values, as float32
bb = bf16_to_f32(bf16_bits_of_f32(b))


@cuda.jit
def bf16_ops(a, b, bits, flags):
    i = cuda.grid(1)
    if i < a.size:
        x = bfloat16(a[i])
        y = bfloat16(b[i])
        bits[0, i] = bfloat16_as_uint16(x + y)
        bits[1, i] = bfloat16_as_uint16(x - y)
        bits[2, i] = bfloat16_as_uint16(x * y)
        bits[3, i] = bfloat16_as_uint16(x / y)
        bits[4, i] = bfloat16_as_uint16(hadd(x, y))
        bits[5, i] = bfloat16_as_uint16(hfma(x, y, x))
        bits[6, i] = bfloat16_as_uint16(-x)
        bits[7, i] = bfloat16_as_uint16(hmul_sat(x, bfloat16(0.01)))
        bits[8, i] = bfloat16_as_uint16(float32_to_bfloat16_rz(a[i]))
        bits[9, i] = bfloat16_as_uint16(float32_to_bfloat16_rd(a[i]))
        bits[10, i] = bfloat16_as_uint16(float32_to_bfloat16_ru(a[i]))
        bits[11, i] = bfloat16_as_uint16(int32_to_bfloat16_ru(int32(a[i] * 1000)))
        bits[12, i] = bfloat16_as_uint16(uint16_as_bfloat16(uint16(i)))
        flags[0, i] = x < y
        flags[1, i] = hlt(x, y)
        flags[2, i] = x == y
        flags[3, i] = bfloat16_to_int32_rn(x)
        flags[4, i] = bfloat16_to_int32_rd(x)
        flags[5, i] = int32(x)  # casts truncate
        flags[6, i] = hisinf(x * bfloat16(1e38))


bits = np.zeros((13, n), np.uint16)
flags = np.zeros((7, n), np.int64)
bf16_ops[(n + 127) // 128, 128](a, b, bits, flags)
f64 = ab.astype(np.float64), bb.astype(np.float64)
want = [bf16_bits_of_f32(ab + bb), bf16_bits_of_f32(ab - bb), bf16_bits_of_f32(ab * bb), bf16_bits_of_f32(ab / bb),
        bf16_bits_of_f32(ab + bb), bf16_bits_of_f32((f64[0] * f64[1] + f64[0]).astype(np.float32)),
        bf16_bits_of_f32(-ab), bf16_bits_of_f32(np.clip(ab * bf16_to_f32(bf16_bits_of_f32(np.float32(0.01))), 0, 1)),
        bf16_bits_of_f32(a, "z"), bf16_bits_of_f32(a, "d"), bf16_bits_of_f32(a, "u"),
        bf16_bits_of_f32((a * 1000).astype(np.int32).astype(np.float32), "u"), np.arange(n).astype(np.uint16)]
names = ["+", "-", "*", "/", "hadd", "hfma", "neg", "hmul_sat", "rz", "rd", "ru", "int32 ru", "as_bfloat16"]
for k, name in enumerate(names):
    bad = np.flatnonzero(bits[k] != want[k])
    assert bad.size == 0, f"bfloat16 {name}: element {bad[0]}: {bits[k][bad[0]]:#x} != {want[k][bad[0]]:#x}"
assert (flags[0] == (ab < bb)).all() and (flags[1] == (ab < bb)).all() and (flags[2] == (ab == bb)).all()
assert (flags[3] == np.rint(ab)).all() and (flags[4] == np.floor(ab)).all() and (flags[5] == np.trunc(ab)).all()
with np.errstate(over="ignore"):
    big = bf16_to_f32(bf16_bits_of_f32(ab * bf16_to_f32(bf16_bits_of_f32(np.float32(1e38)))))
assert np.isinf(big).any() and (flags[6] == np.where(np.isinf(big), np.sign(big), 0)).all(), "hisinf"


# float64 -> bfloat16 rounds once (not through float32).
@cuda.jit
def from_f64(d, out):
    i = cuda.grid(1)
    if i < d.size:
        out[i] = bfloat16_as_uint16(float64_to_bfloat16(d[i]))


base = bf16_to_f32(bf16_bits_of_f32(rng.uniform(1, 1.99, n).astype(np.float32))).astype(np.float64)  # ulp 2^-7
d = base + 2.0 ** -8 * (1 + rng.choice([-1, 1], n) * 2.0 ** -40)  # just off the bfloat16 ties
got = np.zeros(n, np.uint16)
from_f64[(n + 127) // 128, 128](d, got)
exact = np.where(d - base > 2.0 ** -8, bf16_bits_of_f32(base.astype(np.float32)) + 1,
                 bf16_bits_of_f32(base.astype(np.float32))).astype(np.uint16)
bad = np.flatnonzero(got != exact)
assert bad.size == 0, f"float64 -> bfloat16 must round once: {d[bad[:3]]!r} {got[bad[:3]]} {exact[bad[:3]]}"

# --- fp8 -------------------------------------------------------------------


@cuda.jit
def fp8(x, out, back):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = cvt_float_to_fp8(x[i], 0, 0)  # E4M3, no saturation
        out[1, i] = cvt_float_to_fp8(x[i], 0, 1)  # E5M2
        out[2, i] = cvt_float_to_fp8(x[i], 1, 0)  # E4M3, saturating
        out[3, i] = cvt_float_to_e8m0(x[i], 0, 1)  # toward zero
        back[0, i] = float32(fp8_e4m3(x[i]))
        back[1, i] = float32(fp8_e5m2(x[i]))
        back[2, i] = float32(fp8_e8m0(abs(x[i])))


x = (rng.standard_normal(n) * rng.choice([0.001, 1, 30, 500], n)).astype(np.float32)
x[:4] = [0.0, -0.0, 1e6, np.nan]
out = np.zeros((4, n), np.uint8)
back = np.zeros((3, n), np.float32)
fp8[(n + 127) // 128, 128](x, out, back)
assert out[0, 2] == 0x7F and out[1, 2] == 0x7C and out[2, 2] == 0x7E, "fp8 overflow"
with np.errstate(divide="ignore", invalid="ignore"):
    e8 = np.clip(np.floor(np.log2(np.abs(x[4:]).astype(np.float64))) + 127, 0, 254).astype(np.uint8)
assert (out[3][4:] == e8).all(), "e8m0"
assert (back[2][4:] == np.exp2(out[3][4:].astype(np.float64) - 127).astype(np.float32)).all(), "e8m0 decode"
if ml_dtypes is not None:
    fin = np.abs(x) < 400
    with np.errstate(over="ignore", invalid="ignore"):
        e4 = x.astype(ml_dtypes.float8_e4m3fn)
        e5 = x.astype(ml_dtypes.float8_e5m2)
    assert (out[0][fin] == e4.view(np.uint8)[fin]).all(), "E4M3 encoding"
    assert (out[1][fin] == e5.view(np.uint8)[fin]).all(), "E5M2 encoding"
    assert (back[0][fin] == e4.astype(np.float32)[fin]).all(), "E4M3 value"
    assert (back[1][4:] == e5.astype(np.float32)[4:]).all(), "E5M2 value"

    # ml_dtypes bfloat16 arrays are kernel arguments of type bfloat16.
    @cuda.jit
    def scale(v, out):
        i = cuda.grid(1)
        if i < v.size:
            out[i] = v[i] * bfloat16(3.0) + bfloat16(1.0)

    v = a.astype(ml_dtypes.bfloat16)
    o = np.zeros(n, ml_dtypes.bfloat16)
    scale[(n + 127) // 128, 128](v, o)
    # On sm_90 and newer bfloat16 arithmetic is numba-cuda's (cuda_bf16.hpp)
    # mul.bf16 and add.bf16, which ptxas may fuse into one fma.rn.bf16:
    # each element is the product and sum rounded twice or once.
    twice = v * ml_dtypes.bfloat16(3.0) + ml_dtypes.bfloat16(1.0)
    once = (v.astype(np.float64) * 3.0 + 1.0).astype(np.float32).astype(ml_dtypes.bfloat16)
    fused_ok = cuda.is_available() and cuda.get_current_device().compute_capability >= (9, 0)
    assert ((o == twice) | ((o == once) & fused_ok)).all(), "bfloat16 arrays"

# Arithmetic on fp8 values is a TypingError (they only convert).
try:
    @cuda.jit
    def bad(out, y):
        out[0] = float32(fp8_e4m3(y) + fp8_e4m3(y))

    bad[1, 1](np.zeros(1, np.float32), np.float32(1))
    raise SystemExit("fp8 arithmetic compiled")
except cuda.TypingError as e:
    assert "cannot add fp8_e4m3 and fp8_e4m3" in str(e), str(e)

print("bfloat16 fp8 ok")
