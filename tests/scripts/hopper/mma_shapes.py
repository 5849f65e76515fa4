# cuda.mma.mma_sync: every kind offered (m16n8k16 fp16 and bf16, m16n8k8
# tf32, m16n8k32 e4m3 and e5m2, float32 accumulators), one warp per 16 x 8
# tile of D = A @ B + C, with each lane building its registers from the
# tiles as PTX's ISA lays them out (A: rows g and g+8, B: column g, C/D:
# row g or g+8, columns 2t and 2t+1, for lane 4g+t), several MMAs along k,
# on random data against NumPy. On the CPU backend the sums are float32 in
# k order (docs/HOPPER.md), so the result equals a NumPy float32 emulation
# bit for bit; on the GPU the order inside an MMA is unspecified, so each
# element is checked against the exact product with the error bound of a
# float32 sum of the terms in any order with rounding or truncation (looser
# for fp8, whose tensor-core accumulation is narrower).
# stdout: mma shapes: 18 checks passed
import numpy as np
from numba import cuda, float16, uint32

mma = cuda.mma
rng = np.random.default_rng(33)
CPU = cuda.backend() == "cpu"
CHUNKS = 3
checks = 0


def e4m3_value(byte):
    s = -1.0 if byte & 0x80 else 1.0
    e, m = (byte >> 3) & 0xF, byte & 0x7
    if e == 0:
        return s * m * 2.0**-9
    return s * (8 + m) * 2.0 ** (e - 10)


def e5m2_value(byte):
    s = -1.0 if byte & 0x80 else 1.0
    e, m = (byte >> 2) & 0x1F, byte & 0x3
    if e == 0:
        return s * m * 2.0**-16
    return s * (4 + m) * 2.0 ** (e - 17)


def fp8_values(shape, decode, exponent_limit):
    """Random fp8 bytes (finite, magnitudes below 2**exponent_limit) and their values."""
    table = np.array([decode(b) for b in range(256)], np.float32)
    ok = np.flatnonzero(np.isfinite(table) & (np.abs(table) < 2.0**exponent_limit))
    bits = rng.choice(ok, size=shape).astype(np.uint8)
    return bits, table[bits]


def inputs(name, rows, cols):
    """(memory as bytes of the PTX element type, float32 values) of a random rows x cols tile."""
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    if name == "f16":
        h = x.astype(np.float16)
        return h.view(np.uint16), h.astype(np.float32)
    if name == "bf16":
        u = x.view(np.uint32).astype(np.uint64)
        bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
        return bits, (bits.astype(np.uint32) << 16).view(np.float32)
    if name == "tf32":
        t = (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
        return t.view(np.uint32), t
    if name == "e4m3":
        return fp8_values((rows, cols), e4m3_value, 5)
    return fp8_values((rows, cols), e5m2_value, 6)


def make_kernel(kind):
    @cuda.jit
    def gemm(Aw, Bw, C, D):
        # Aw: A's rows as 32-bit words (16 x 8 per MMA), Bw: B's columns (8 x 8 per MMA).
        lane = cuda.laneid
        g = lane >> 2
        t = lane & 3
        acc = (C[g, 2 * t], C[g, 2 * t + 1], C[g + 8, 2 * t], C[g + 8, 2 * t + 1])
        for s in range(Aw.shape[1] // 8):
            w = 8 * s + t
            a = (Aw[g, w], Aw[g + 8, w], Aw[g, w + 4], Aw[g + 8, w + 4])
            b = (Bw[g, w], Bw[g, w + 4])
            acc = mma.mma_sync(kind, a, b, acc)
        D[g, 2 * t] = acc[0]
        D[g, 2 * t + 1] = acc[1]
        D[g + 8, 2 * t] = acc[2]
        D[g + 8, 2 * t + 1] = acc[3]

    return gemm


def run(kind, name, k):
    global checks
    K = CHUNKS * k
    a_mem, a_val = inputs(name, 16, K)
    bt_mem, bt_val = inputs(name, 8, K)  # B transposed: its columns are rows here
    b_val = bt_val.T
    c = rng.standard_normal((16, 8)).astype(np.float32)
    d = np.zeros((16, 8), np.float32)
    Aw = np.ascontiguousarray(a_mem).view(np.uint32)
    Bw = np.ascontiguousarray(bt_mem).view(np.uint32)
    assert Aw.shape == (16, 8 * CHUNKS) and Bw.shape == (8, 8 * CHUNKS), (Aw.shape, Bw.shape)
    make_kernel(kind)[1, 32](Aw, Bw, c, d)
    if CPU:
        acc = c.copy()
        for p in range(K):
            acc = acc + np.outer(a_val[:, p], b_val[p, :]).astype(np.float32)  # exact products
        assert (d == acc).all(), (name, np.abs(d - acc).max())
    else:
        exact = a_val.astype(np.float64) @ b_val.astype(np.float64) + c
        scale = np.abs(a_val).astype(np.float64) @ np.abs(b_val).astype(np.float64) + np.abs(c)
        ulp = 2.0**-13 if name in ("e4m3", "e5m2") else 2.0**-23
        bound = (K + 1) * ulp * scale
        assert (np.abs(d - exact) <= bound).all(), (name, (np.abs(d - exact) / bound).max())
    assert np.abs(d).max() > 0
    checks += 1


for kind, name, k in ((mma.m16n8k16_f16, "f16", 16), (mma.m16n8k16_bf16, "bf16", 16), (mma.m16n8k8_tf32, "tf32", 8),
                      (mma.m16n8k32_e4m3, "e4m3", 32), (mma.m16n8k32_e5m2, "e5m2", 32)):
    for _ in range(2):
        run(kind, name, k)


# ldmatrix (x1, x2, x4, plain and transposed) from shared memory filled by
# cp.async: lane L gives the address of row L % 8 of matrix L // 8 (the
# four 8x8 quarters of a 16x16 fp16 tile, column-block major), and receives
# of matrix m the elements (L//4, 2(L%4)) and (L//4, 2(L%4)+1), or
# transposed (2(L%4), L//4) and (2(L%4)+1, L//4), the first in the low half.
def make_ldmatrix(num, trans):
    @cuda.jit
    def load(M, out):
        tile = cuda.shared.array(256, float16, alignment=16)
        lane = cuda.laneid
        mma.cp_async(tile, 8 * lane, M, 8 * lane)  # 16 bytes each: the 32 lanes copy the whole tile
        mma.commit_group()
        mma.wait_group(0)
        cuda.syncthreads()
        m = lane // 8
        row = (m % 2) * 8 + lane % 8
        col = (m // 2) * 8
        r = mma.ldmatrix(tile, row * 16 + col, num, trans=trans)
        for i in range(num):
            out[lane, i] = uint32(r[i])

    return load


def ldmatrix_expected(tile_bits, num, trans):
    want = np.zeros((32, num), np.uint32)
    for lane in range(32):
        g, t = lane // 4, lane % 4
        for m in range(num):
            q = tile_bits[(m % 2) * 8:(m % 2) * 8 + 8, (m // 2) * 8:(m // 2) * 8 + 8]
            lo, hi = (q[2 * t, g], q[2 * t + 1, g]) if trans else (q[g, 2 * t], q[g, 2 * t + 1])
            want[lane, m] = np.uint32(lo) | (np.uint32(hi) << np.uint32(16))
    return want


tile = rng.standard_normal((16, 16)).astype(np.float16)
for num in (1, 2, 4):
    for trans in (False, True):
        out = np.zeros((32, num), np.uint32)
        make_ldmatrix(num, trans)[1, 32](tile.reshape(256), out)
        want = ldmatrix_expected(tile.view(np.uint16), num, trans)
        assert (out == want).all(), (num, trans, out[:2], want[:2])
        checks += 1

# The same fp16 tile through ldmatrix into an m16n8k16 A fragment (x4) and a
# B fragment (x2, transposed from a row-major k x n tile): one MMA.
@cuda.jit
def tile_mma(A, B, D):
    sa = cuda.shared.array(256, float16, alignment=16)
    sb = cuda.shared.array(128, float16, alignment=16)
    lane = cuda.laneid
    mma.cp_async(sa, 8 * lane, A, 8 * lane)
    if lane < 16:
        mma.cp_async(sb, 8 * lane, B, 8 * lane)
    mma.commit_group()
    mma.wait_group(0)
    cuda.syncthreads()
    m = lane // 8
    a = mma.ldmatrix(sa, ((m % 2) * 8 + lane % 8) * 16 + (m // 2) * 8)
    b = mma.ldmatrix(sb, (lane % 16) * 8, 2, trans=True)  # rows k of B (8 halves each)
    g, t = lane >> 2, lane & 3
    d = mma.mma_sync(mma.m16n8k16_f16, a, b, (0.0, 0.0, 0.0, 0.0))
    D[g, 2 * t] = d[0]
    D[g, 2 * t + 1] = d[1]
    D[g + 8, 2 * t] = d[2]
    D[g + 8, 2 * t + 1] = d[3]


A16 = rng.standard_normal((16, 16)).astype(np.float16)
B16 = rng.standard_normal((16, 8)).astype(np.float16)
D = np.zeros((16, 8), np.float32)
tile_mma[1, 32](A16.reshape(256), B16.reshape(128), D)
exact = A16.astype(np.float64) @ B16.astype(np.float64)
scale = np.abs(A16.astype(np.float64)) @ np.abs(B16.astype(np.float64))
assert (np.abs(D - exact) <= 17 * 2.0**-23 * scale).all(), np.abs(D - exact).max()
checks += 1


# to_tf32 rounds as cvt.rna.tf32.f32: to nearest, ties away from zero.
@cuda.jit
def tf32_bits(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = mma.to_tf32(x[i])


x = rng.standard_normal(64).astype(np.float32)
x[:4] = np.array([1 + 2.0**-11, -(1 + 3 * 2.0**-11), 1 + 2.0**-12, 3.0], np.float32)  # ties and an exact value
out = np.zeros(64, np.uint32)
tf32_bits[1, 64](x, out)
want = (x.view(np.uint32) + np.uint32(0x1000)) & np.uint32(0xFFFFE000)
assert (out == want).all(), (out[:4], want[:4])
assert out[0] == np.float32(1 + 2.0**-10).view(np.uint32)
checks += 1
print("mma shapes: %d checks passed" % checks)
