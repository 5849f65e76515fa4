# Warp-level functions with 32-lane semantics: shuffle reductions (down,
# xor), shfl_sync broadcast, shfl_up scan, ballot, all/any, laneid,
# activemask and lanemask_lt.
import numpy as np
from numba import cuda, int32, uint32

rng = np.random.default_rng(3)
FULL = 0xFFFFFFFF


@cuda.jit
def warp_reductions(x, out):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = x[i]
    s = v
    off = 16
    while off > 0:
        s += cuda.shfl_down_sync(FULL, s, off)
        off //= 2
    m = v
    k = 16
    while k >= 1:
        m = max(m, cuda.shfl_xor_sync(FULL, m, k))
        k //= 2
    first = cuda.shfl_sync(FULL, v, 0)
    w = i // 32
    if lane == 0:
        out[w, 0] = s
    out[w * 32 + lane, 1] = m
    out[w * 32 + lane, 2] = first


x = rng.integers(-1000, 1000, 32 * 12).astype(np.int64)
out = np.zeros((x.size, 3), np.int64)
warp_reductions[3, 128](x, out)
xw = x.reshape(-1, 32)
np.testing.assert_array_equal(out[:12, 0], xw.sum(axis=1))
np.testing.assert_array_equal(out[:, 1], np.repeat(xw.max(axis=1), 32))
np.testing.assert_array_equal(out[:, 2], np.repeat(xw[:, 0], 32))


@cuda.jit
def warp_scan(x, out):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = x[i]
    d = 1
    while d < 32:
        u = cuda.shfl_up_sync(FULL, v, d)
        if lane >= d:
            v += u
        d *= 2
    out[i] = v


xf = rng.random(32 * 8).astype(np.float32)
outf = np.zeros_like(xf)
warp_scan[2, 128](xf, outf)
np.testing.assert_allclose(outf, np.cumsum(xf.reshape(-1, 32), axis=1).reshape(-1), rtol=1e-5)


@cuda.jit
def votes(x, out):
    i = cuda.grid(1)
    lane = cuda.laneid
    p = x[i] > 0
    active = cuda.activemask()      # all 32 lanes are converged here
    below = cuda.lanemask_lt()
    b = cuda.ballot_sync(FULL, p)
    a = cuda.all_sync(FULL, p)
    y = cuda.any_sync(FULL, p)
    if lane == 0:
        w = i // 32
        out[w, 0] = b
        out[w, 1] = 1 if a else 0
        out[w, 2] = 1 if y else 0
        out[w, 3] = active
        out[w, 4] = below
    if lane == 5:
        out[i // 32, 5] = below


xv = rng.standard_normal(32 * 6)
xv[32:64] = np.abs(xv[32:64]) + 0.1   # warp 1: all positive
xv[64:96] = -np.abs(xv[64:96]) - 0.1  # warp 2: none positive
outv = np.zeros((6, 6), np.uint64)
votes[2, 96](xv, outv)
for w in range(6):
    bits = sum(1 << k for k in range(32) if xv[w * 32 + k] > 0)
    assert outv[w, 0] == bits, (w, hex(int(outv[w, 0])), hex(bits))
    assert outv[w, 1] == (1 if bits == 0xFFFFFFFF else 0)
    assert outv[w, 2] == (1 if bits != 0 else 0)
    assert outv[w, 3] == 0xFFFFFFFF
    assert outv[w, 4] == 0
    assert outv[w, 5] == 0b11111
print("warp ok")
