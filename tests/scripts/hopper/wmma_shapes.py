# cuda.wmma: every offered shape and input type (fp16 and bf16 at 16x16x16,
# 32x8x16 and 8x32x16, tf32 at 16x16x8, fp32 accumulators) and every layout
# (row/col-major A and B, accumulators loaded and stored in either order), a
# warp per output tile looping over k, checked against NumPy on random data.
# On the CPU backend the sums are float32 in k order (docs/HOPPER.md), so the
# result equals a NumPy float32 emulation bit for bit; on the GPU the order
# inside an MMA is unspecified, so each element is checked against the exact
# product with the error bound of a float32 sum of K+1 terms in any order
# with rounding or truncation: (K + 1) * 2**-23 * (sum |a_ik b_kj| + |c_ij|).
# fill_fragment rounds its value to the fragment's type (fp16 and bf16 to
# nearest even, tf32 to nearest with ties away, as cvt.rna does).
# stdout: wmma shapes: 24 checks passed
import numpy as np
from numba import cuda, float16, bfloat16, float32

wmma = cuda.wmma
rng = np.random.default_rng(2024)
CPU = cuda.backend() == "cpu"
checks = 0


def bf16_bits(x):
    """float32 -> bfloat16 bits (round to nearest even) and the values they hold."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


def tf32_round(x):
    """cvt.rna.tf32.f32: 10 mantissa bits, to nearest, ties away from zero."""
    u = x.astype(np.float32).view(np.uint32)
    return ((u + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)


def make_kernel(m, n, k, dtype, a_row, b_row, c_row):
    la = wmma.row_major if a_row else wmma.col_major
    lb = wmma.row_major if b_row else wmma.col_major
    lc = wmma.mem_row_major if c_row else wmma.mem_col_major

    @cuda.jit
    def gemm(A, B, C, D, M, N, K):
        i0 = cuda.blockIdx.x * m
        j0 = cuda.blockIdx.y * n
        a = wmma.fragment(wmma.matrix_a, m, n, k, dtype, la)
        b = wmma.fragment(wmma.matrix_b, m, n, k, dtype, lb)
        c = wmma.fragment(wmma.accumulator, m, n, k, float32)
        c_offset = i0 * N + j0 if c_row else j0 * M + i0
        wmma.load_matrix_sync(c, C, c_offset, N if c_row else M, lc)
        for k0 in range(0, K, k):
            wmma.load_matrix_sync(a, A, i0 * K + k0 if a_row else k0 * M + i0, K if a_row else M)
            wmma.load_matrix_sync(b, B, k0 * N + j0 if b_row else j0 * K + k0, N if b_row else K)
            wmma.mma_sync(c, a, b, c)
        wmma.store_matrix_sync(D, c_offset, c, N if c_row else M, lc)

    return gemm


def run(m, n, k, kind, a_row, b_row, c_row):
    global checks
    M, N, K = 2 * m, 3 * n, 4 * k
    a32 = rng.standard_normal((M, K)).astype(np.float32)
    b32 = rng.standard_normal((K, N)).astype(np.float32)
    c32 = rng.standard_normal((M, N)).astype(np.float32)
    if kind == "float16":
        a_mem, b_mem = a32.astype(np.float16), b32.astype(np.float16)
        a_val, b_val, dtype = a_mem.astype(np.float32), b_mem.astype(np.float32), float16
    elif kind == "bfloat16":
        (a_mem, a_val), (b_mem, b_val), dtype = bf16_bits(a32), bf16_bits(b32), bfloat16
    else:
        a_mem, b_mem, dtype = a32, b32, wmma.tf32
        a_val, b_val = tf32_round(a32), tf32_round(b32)
    A = a_mem if a_row else np.ascontiguousarray(a_mem.T)
    B = b_mem if b_row else np.ascontiguousarray(b_mem.T)
    C = c32 if c_row else np.ascontiguousarray(c32.T)
    D = np.zeros_like(C)
    make_kernel(m, n, k, dtype, a_row, b_row, c_row)[(M // m, N // n), 32](A, B, C, D, M, N, K)
    got = D if c_row else D.T
    what = (m, n, k, kind, a_row, b_row, c_row)
    if CPU:
        acc = c32.copy()
        for p in range(K):
            acc = acc + np.outer(a_val[:, p], b_val[p, :]).astype(np.float32)  # products are exact in float32
        assert (got == acc).all(), (what, np.abs(got - acc).max())
    else:
        exact = a_val.astype(np.float64) @ b_val.astype(np.float64) + c32
        scale = np.abs(a_val).astype(np.float64) @ np.abs(b_val).astype(np.float64) + np.abs(c32)
        bound = (K + 1) * 2.0**-23 * scale
        assert (np.abs(got - exact) <= bound).all(), (what, (np.abs(got - exact) / bound).max())
    checks += 1


for kind in ("float16", "bfloat16"):
    for m, n, k in ((16, 16, 16), (32, 8, 16), (8, 32, 16)):
        run(m, n, k, kind, True, True, True)
        run(m, n, k, kind, False, False, False)
        run(m, n, k, kind, True, False, True)
for layouts in ((True, True, True), (False, False, False), (False, True, False)):
    run(16, 16, 8, "tf32", *layouts)


def make_fill(m, n, k, dtype):
    @cuda.jit
    def fill(B, D, value):
        # D = fill(value) @ B with B the identity: D holds the rounded value.
        a = wmma.fragment(wmma.matrix_a, m, n, k, dtype, wmma.row_major)
        b = wmma.fragment(wmma.matrix_b, m, n, k, dtype, wmma.row_major)
        c = wmma.fragment(wmma.accumulator, m, n, k, float32)
        wmma.fill_fragment(a, value)
        wmma.fill_fragment(c, 0)
        wmma.load_matrix_sync(b, B, 0, n)
        wmma.mma_sync(c, a, b, c)
        wmma.store_matrix_sync(D, 0, c, n, wmma.mem_row_major)

    return fill


for kind, (m, n, k) in (("float16", (16, 16, 16)), ("bfloat16", (16, 16, 16)), ("tf32", (16, 16, 8))):
    value = np.float32(rng.uniform(0.1, 10.0))
    eye = np.zeros((k, n), np.float32)
    eye[np.arange(k), np.arange(k)] = 1.0
    if kind == "float16":
        B, want, dtype = eye.astype(np.float16), np.float32(np.float16(value)), float16
    elif kind == "bfloat16":
        B, want, dtype = bf16_bits(eye)[0], bf16_bits(np.array([value]))[1][0], bfloat16
    else:
        B, want, dtype = eye, tf32_round(np.array([value]))[0], wmma.tf32
    D = np.zeros((m, n), np.float32)
    make_fill(m, n, k, dtype)[1, 32](B, D, value)
    expected = np.zeros((m, n), np.float32)
    expected[:, :k] = want
    assert (D == expected).all(), (kind, value, want, D[0, :4])
    checks += 1
print("wmma shapes: %d checks passed" % checks)
