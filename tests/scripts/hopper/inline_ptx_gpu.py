# cuda.inline_ptx runs real PTX instructions on the GPU: add.s32, prmt.b32,
# lop3.b32 with an immediate truth table, %laneid, a two-output mov.b64
# split and fma.rn.f32, each checked against NumPy on random data.
# backends: cuda
# stdout: inline_ptx gpu: 6 checks passed
import numpy as np
from numba import cuda, uint32

rng = np.random.default_rng(33)
n = 4096
a = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
b = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
ua = a.view(np.uint32)
ub = b.view(np.uint32)
uc = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
sel = rng.integers(0, 2**16, n, dtype=np.uint64).astype(np.uint32)
checks = 0


@cuda.jit
def ops(a, b, ua, ub, uc, sel, add_out, prmt_out, lop_out, lane_out, hi_out, lo_out):
    i = cuda.grid(1)
    if i < a.size:
        add_out[i] = cuda.inline_ptx("add.s32 %0, %1, %2;", "=r : r, r", a[i], b[i])
        prmt_out[i] = cuda.inline_ptx("prmt.b32 %0, %1, %2, %3;", "=r : r, r, r", ua[i], ub[i], sel[i],
                                      result=uint32)
        lop_out[i] = cuda.inline_ptx("lop3.b32 %0, %1, %2, %3, %4;", "=r : r, r, r, n", ua[i], ub[i], uc[i], 0xE8,
                                     result=uint32)
        lane_out[i] = cuda.inline_ptx("mov.u32 %0, %%laneid;", "=r")
        x = (np.int64(a[i]) << 32) | np.int64(ub[i])
        hi, lo = cuda.inline_ptx("mov.b64 {%1, %0}, %2;", "=r, =r : l", x, result=(uint32, uint32))
        hi_out[i] = hi
        lo_out[i] = lo


outs = [np.zeros(n, np.int32), np.zeros(n, np.uint32), np.zeros(n, np.uint32), np.zeros(n, np.int32),
        np.zeros(n, np.uint32), np.zeros(n, np.uint32)]
ops[n // 128, 128](a, b, ua, ub, uc, sel, *outs)
add_out, prmt_out, lop_out, lane_out, hi_out, lo_out = outs
assert (add_out == (a.astype(np.int64) + b).astype(np.int32)).all()
checks += 1


def prmt(x, y, s):
    # PTX prmt default mode: each result byte picks one of the eight bytes of
    # {y, x} by the low 3 bits of its selector nibble, replicating the sign if bit 3 is set.
    data = (np.uint64(y) << np.uint64(32)) | np.uint64(x)
    r = 0
    for k in range(4):
        nib = (int(s) >> (4 * k)) & 0xF
        byte = (int(data) >> (8 * (nib & 7))) & 0xFF
        if nib & 8:
            byte = 0xFF if byte & 0x80 else 0
        r |= byte << (8 * k)
    return r


expected = np.array([prmt(x, y, s) for x, y, s in zip(ua, ub, sel)], dtype=np.uint32)
assert (prmt_out == expected).all()
checks += 1
assert (lop_out == ((ua & ub) | (ua & uc) | (ub & uc))).all()
checks += 1
assert (lane_out == np.arange(n) % 32).all()
checks += 1
assert (hi_out == ua).all() and (lo_out == ub).all()
checks += 1


@cuda.jit
def fma(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = cuda.inline_ptx("fma.rn.f32 %0, %1, %2, %3;", "=f : f, f, f", x[i], y[i], 0.5)


x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
out = np.zeros(n, np.float32)
fma[n // 128, 128](x, y, out)
assert (out == (x.astype(np.float64) * y + 0.5).astype(np.float32)).all()
checks += 1
print("inline_ptx gpu: %d checks passed" % checks)
