# A tiled fp16 GEMM with fp32 accumulation on tensor cores (cuda.wmma,
# docs/HOPPER.md), and the same tiling without tensor cores, both checked
# against NumPy on random data. scripts/bench/bench_wmma_gemm.py times them
# at 4096^3 against cuBLAS.
#
# gemm_wmma: a block of 256 threads (8 warps) computes a 128 x 128 tile of C.
# Per step of k (32 at a time) the block copies a 128 x 32 slice of A and a
# 32 x 128 slice of B into shared memory, 8 bytes per load (rows padded by 8 halves so that the
# warps' fragment loads spread over the banks and every fragment starts on a
# 32-byte boundary, as wmma.load_matrix_sync needs); the warps, 4 x 2, each
# own a 32 x 64 piece of the tile: 2 x 4 accumulators of 16 x 16, fed by
# 2 fragments of A and 4 of B per 16 of k. The accumulators go straight from
# registers to C. No double buffering: the copy and the MMAs of one step are
# separated by barriers.
# gemm_simt: the same tile and copies, each thread computing an 8 x 8 block of
# C with fp32 FMAs from the shared tiles.
# stdout: wmma gemm ok
import numpy as np

from numba import cuda, float16, float32

wmma = cuda.wmma
BM, BN, BK = 128, 128, 32
PAD = 8
THREADS = 256


@cuda.jit(device=True, inline=True)
def copy_tiles(A, B, As, Bs, bm, bn, k0, t):
    """The block's 128 x 32 slice of A and 32 x 128 of B into shared memory,
    four halves (8 bytes) per load and store: 4 + 4 per thread."""
    A8 = A.view(np.uint64)
    B8 = B.view(np.uint64)
    As8 = As.view(np.uint64)
    Bs8 = Bs.view(np.uint64)
    for e in range(t, BM * BK // 4, THREADS):
        r = e // (BK // 4)
        c = e % (BK // 4)
        As8[r, c] = A8[bm + r, k0 // 4 + c]
    for e in range(t, BK * BN // 4, THREADS):
        r = e // (BN // 4)
        c = e % (BN // 4)
        Bs8[r, c] = B8[k0 + r, bn // 4 + c]


@cuda.jit
def gemm_wmma(A, B, C, M, N, K):
    As = cuda.shared.array((BM, BK + PAD), float16, alignment=128)
    Bs = cuda.shared.array((BK, BN + PAD), float16, alignment=128)
    t = cuda.threadIdx.x
    warp = t // 32
    wr = warp // 2  # 4 warp rows of 32
    wc = warp % 2  # 2 warp columns of 64
    bm = cuda.blockIdx.y * BM
    bn = cuda.blockIdx.x * BN
    a0 = wmma.fragment(wmma.matrix_a, 16, 16, 16, float16, wmma.row_major)
    a1 = wmma.fragment(wmma.matrix_a, 16, 16, 16, float16, wmma.row_major)
    b0 = wmma.fragment(wmma.matrix_b, 16, 16, 16, float16, wmma.row_major)
    b1 = wmma.fragment(wmma.matrix_b, 16, 16, 16, float16, wmma.row_major)
    b2 = wmma.fragment(wmma.matrix_b, 16, 16, 16, float16, wmma.row_major)
    b3 = wmma.fragment(wmma.matrix_b, 16, 16, 16, float16, wmma.row_major)
    c00 = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    c01 = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    c02 = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    c03 = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    c10 = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    c11 = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    c12 = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    c13 = wmma.fragment(wmma.accumulator, 16, 16, 16, float32)
    for c in (c00, c01, c02, c03, c10, c11, c12, c13):
        wmma.fill_fragment(c, 0.0)
    lda = BK + PAD
    ldb = BN + PAD
    for k0 in range(0, K, BK):
        copy_tiles(A, B, As, Bs, bm, bn, k0, t)
        cuda.syncthreads()
        for kk in range(0, BK, 16):
            wmma.load_matrix_sync(a0, As, (wr * 32) * lda + kk, lda)
            wmma.load_matrix_sync(a1, As, (wr * 32 + 16) * lda + kk, lda)
            wmma.load_matrix_sync(b0, Bs, kk * ldb + wc * 64, ldb)
            wmma.load_matrix_sync(b1, Bs, kk * ldb + wc * 64 + 16, ldb)
            wmma.load_matrix_sync(b2, Bs, kk * ldb + wc * 64 + 32, ldb)
            wmma.load_matrix_sync(b3, Bs, kk * ldb + wc * 64 + 48, ldb)
            wmma.mma_sync(c00, a0, b0, c00)
            wmma.mma_sync(c01, a0, b1, c01)
            wmma.mma_sync(c02, a0, b2, c02)
            wmma.mma_sync(c03, a0, b3, c03)
            wmma.mma_sync(c10, a1, b0, c10)
            wmma.mma_sync(c11, a1, b1, c11)
            wmma.mma_sync(c12, a1, b2, c12)
            wmma.mma_sync(c13, a1, b3, c13)
        cuda.syncthreads()
    row = bm + wr * 32
    col = bn + wc * 64
    wmma.store_matrix_sync(C, row * N + col, c00, N, wmma.mem_row_major)
    wmma.store_matrix_sync(C, row * N + col + 16, c01, N, wmma.mem_row_major)
    wmma.store_matrix_sync(C, row * N + col + 32, c02, N, wmma.mem_row_major)
    wmma.store_matrix_sync(C, row * N + col + 48, c03, N, wmma.mem_row_major)
    wmma.store_matrix_sync(C, (row + 16) * N + col, c10, N, wmma.mem_row_major)
    wmma.store_matrix_sync(C, (row + 16) * N + col + 16, c11, N, wmma.mem_row_major)
    wmma.store_matrix_sync(C, (row + 16) * N + col + 32, c12, N, wmma.mem_row_major)
    wmma.store_matrix_sync(C, (row + 16) * N + col + 48, c13, N, wmma.mem_row_major)


@cuda.jit
def gemm_simt(A, B, C, M, N, K):
    As = cuda.shared.array((BM, BK + PAD), float16, alignment=128)
    Bs = cuda.shared.array((BK, BN + PAD), float16, alignment=128)
    acc = cuda.local.array((8, 8), float32)
    t = cuda.threadIdx.x
    ty = t // 16  # 16 x 16 threads, each an 8 x 8 block of the 128 x 128 tile
    tx = t % 16
    bm = cuda.blockIdx.y * BM
    bn = cuda.blockIdx.x * BN
    for i in range(8):
        for j in range(8):
            acc[i, j] = float32(0)
    for k0 in range(0, K, BK):
        copy_tiles(A, B, As, Bs, bm, bn, k0, t)
        cuda.syncthreads()
        for kk in range(BK):
            for i in range(8):
                a = float32(As[ty + 16 * i, kk])
                for j in range(8):
                    acc[i, j] += a * float32(Bs[kk, tx + 16 * j])
        cuda.syncthreads()
    for i in range(8):
        for j in range(8):
            C[bm + ty + 16 * i, bn + tx + 16 * j] = acc[i, j]


def launch(kernel, A, B, C):
    M, K = A.shape
    N = B.shape[1]
    assert M % BM == 0 and N % BN == 0 and K % BK == 0, "sizes must be multiples of the 128 x 128 x 32 tile"
    kernel[(N // BN, M // BM), THREADS](A, B, C, M, N, K)


def check(M, N, K, seed=7):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((M, K)).astype(np.float16)
    B = rng.standard_normal((K, N)).astype(np.float16)
    exact = A.astype(np.float64) @ B.astype(np.float64)
    # Products of fp16 values are exact in fp32; K float32 additions in any
    # order (rounded or truncated) stay within K * 2**-23 * sum |a b|.
    bound = K * 2.0**-23 * (np.abs(A).astype(np.float64) @ np.abs(B).astype(np.float64))
    for kernel in (gemm_wmma, gemm_simt):
        C = np.zeros((M, N), np.float32)
        launch(kernel, A, B, C)
        assert (np.abs(C - exact) <= bound).all(), (kernel, np.abs(C - exact).max())


if __name__ == "__main__":
    check(128, 256, 64)
    print("wmma gemm ok")
