# A tiled fp16 GEMM with fp32 accumulation on tensor cores through cuda.mma
# (register fragments, docs/HOPPER.md), the way fast Ampere/Hopper GEMMs
# without wgmma are written, checked against NumPy on random data.
# scripts/bench/bench_wmma_gemm.py times its variants at 4096^3.
#
# make_gemm(BM, BN, BK, WM, WN, STAGES) builds one variant: a block of
# (BM/WM) x (BN/WN) warps computes a BM x BN tile of C = A @ B (A: M x K,
# B: K x N, row-major fp16; C float32); each warp owns WM x WN of it as
# (WM/16) x (WN/8) m16n8 accumulators (4 float32 registers per lane each).
# - Global -> shared: cp.async of 16 bytes (8 halves) per thread and copy,
#   STAGES slices of BK in k in flight (a ring of stages in dynamic shared
#   memory; commit_group per slice, wait_group(STAGES - 2) before using one),
#   so the copies of the next slices run under the MMAs of this one.
# - Shared rows are padded by 8 halves (16 bytes): the 8 rows an ldmatrix
#   phase reads then fall in 8 different 16-byte bank groups (no conflicts),
#   and every row stays 16-byte aligned for cp.async and ldmatrix.
# - Shared -> registers: ldmatrix.x4 gives an m16n8k16 A fragment (16 x 16);
#   ldmatrix.x4.trans gives the B fragments of two n8 tiles (16 x 16 of the
#   row-major k x n slice, transposed into the column layout mma wants).
# - mma.sync.m16n8k16.row.col.f32.f16.f16.f32 on the fragments, the
#   accumulators in registers (a local array that LLVM keeps in registers:
#   every index is a constant once the loops over the warp tile unroll).
# make_pipelined_gemm(...) builds the same tiling without the loop overheads
# make_gemm's PTX shows (stage offsets carried instead of kt % STAGES),
# with register fragments double-buffered across the slice's barrier, a
# grouped launch order for L2, 64-bit stores of C, and optionally the ring
# of stages unrolled (docs/HOPPER.md, "The pipelined variants").
# stdout: mma gemm ok
import numpy as np

from numba import cuda, float16, float32, uint32

mma = cuda.mma
PAD = 8  # halves of padding per shared row


def make_gemm(BM=128, BN=128, BK=32, WM=64, WN=32, STAGES=3):
    """(kernel, threads per block, dynamic shared bytes) of one variant."""
    WARPS_M, WARPS_N = BM // WM, BN // WN
    THREADS = 32 * WARPS_M * WARPS_N
    MI, NI = WM // 16, WN // 8  # m16 rows and n8 columns of accumulators per warp
    LDA, LDB = BK + PAD, BN + PAD  # shared row lengths in halves
    A_STAGE, B_STAGE = BM * LDA, BK * LDB
    B_BASE = STAGES * A_STAGE
    A_CHUNKS, B_CHUNKS = BM * BK // 8, BK * BN // 8  # 16-byte copies per slice
    A_CHUNKS_PER_ROW, B_CHUNKS_PER_ROW = BK // 8, BN // 8
    ACC = MI * NI * 4
    assert BK % 16 == 0 and NI % 2 == 0 and A_CHUNKS % THREADS == 0 and B_CHUNKS % THREADS == 0

    @cuda.jit(device=True, inline=True)
    def load_slice(A, B, smem, stage, bm, bn, k0, K, N, t):
        for i in range(A_CHUNKS // THREADS):
            c = t + i * THREADS
            r = c // A_CHUNKS_PER_ROW
            q = c % A_CHUNKS_PER_ROW
            mma.cp_async(smem, stage * A_STAGE + r * LDA + q * 8, A, (bm + r) * K + k0 + q * 8)
        for i in range(B_CHUNKS // THREADS):
            c = t + i * THREADS
            r = c // B_CHUNKS_PER_ROW
            q = c % B_CHUNKS_PER_ROW
            mma.cp_async(smem, B_BASE + stage * B_STAGE + r * LDB + q * 8, B, (k0 + r) * N + bn + q * 8)

    @cuda.jit
    def gemm(A, B, C, M, N, K):
        smem = cuda.shared.array(0, float16)
        acc = cuda.local.array(ACC, float32)
        af = cuda.local.array(MI * 4, uint32)
        bf = cuda.local.array(NI * 2, uint32)
        t = cuda.threadIdx.x
        lane = t % 32
        warp = t // 32
        wm = (warp // WARPS_N) * WM
        wn = (warp % WARPS_N) * WN
        bm = cuda.blockIdx.y * BM
        bn = cuda.blockIdx.x * BN
        for mi in range(MI):
            for ni in range(NI):
                for j in range(4):
                    acc[(mi * NI + ni) * 4 + j] = float32(0)
        slices = K // BK
        for s in range(STAGES - 1):
            if s < slices:
                load_slice(A, B, smem, s, bm, bn, s * BK, K, N, t)
            mma.commit_group()
        # The lane's ldmatrix row within a 16 x 16 block: rows 0-15, then the right half.
        lrow = lane % 16
        lcol = (lane // 16) * 8
        g = lane // 4
        tq = lane % 4
        for kt in range(slices):
            mma.wait_group(STAGES - 2)  # slice kt has landed (this thread's copies)
            cuda.syncthreads()  # ... everyone's; and slice kt - 1's stage is free again
            nxt = kt + STAGES - 1
            if nxt < slices:
                load_slice(A, B, smem, nxt % STAGES, bm, bn, nxt * BK, K, N, t)
            mma.commit_group()
            stage = kt % STAGES
            a_base = stage * A_STAGE + (wm + lrow) * LDA + lcol
            b_base = B_BASE + stage * B_STAGE + lrow * LDB + wn + lcol
            for kk in range(0, BK, 16):
                for mi in range(MI):
                    r = mma.ldmatrix(smem, a_base + mi * 16 * LDA + kk)
                    for j in range(4):
                        af[mi * 4 + j] = r[j]
                for p in range(NI // 2):
                    r = mma.ldmatrix(smem, b_base + kk * LDB + p * 16, 4, trans=True)
                    for j in range(4):
                        bf[p * 4 + j] = r[j]
                for mi in range(MI):
                    a = (af[mi * 4], af[mi * 4 + 1], af[mi * 4 + 2], af[mi * 4 + 3])
                    for ni in range(NI):
                        o = (mi * NI + ni) * 4
                        d = mma.mma_sync(mma.m16n8k16_f16, a, (bf[ni * 2], bf[ni * 2 + 1]),
                                         (acc[o], acc[o + 1], acc[o + 2], acc[o + 3]))
                        for j in range(4):
                            acc[o + j] = d[j]
        # The lane's corner of the warp tile: every store below is at a constant offset from it.
        Cw = C[bm + wm + g:, bn + wn + 2 * tq:]
        for mi in range(MI):
            for ni in range(NI):
                o = (mi * NI + ni) * 4
                Cw[mi * 16, ni * 8] = acc[o]
                Cw[mi * 16, ni * 8 + 1] = acc[o + 1]
                Cw[mi * 16 + 8, ni * 8] = acc[o + 2]
                Cw[mi * 16 + 8, ni * 8 + 1] = acc[o + 3]

    shared_bytes = 2 * STAGES * (A_STAGE + B_STAGE)
    return gemm, THREADS, shared_bytes


def make_pipelined_gemm(BM=128, BN=128, BK=64, WM=64, WN=32, STAGES=3, GROUP=8, MIN_BLOCKS=0, DOUBLE=True,
                        UNROLL_RING=False):
    """make_gemm's tiling with the loop overheads its PTX showed taken out and
    the fragment loads software-pipelined; (kernel, threads, shared bytes).
    - The ring of stages is walked by carried element offsets that wrap
      (a select), not by `kt % STAGES` (a 64-bit mul.hi and a recomputed
      address per stage each slice); a stage's A and B are contiguous, so
      one offset locates both.
    - DOUBLE: fragments double-buffered in registers: step kk + 16's
      ldmatrix are issued before step kk's MMAs, and at the last step of a
      slice the barrier comes first, so the next slice's first fragments
      load under the MMAs that finish this one (one barrier per slice, as
      before; twice the fragment registers). Without it, make_gemm's order.
    - Blocks are launched on a 1D grid in grouped order: consecutive blocks
      walk GROUP rows of tiles down a column before the next column, so the
      blocks resident at once share their slices of A and B in L2.
    - MIN_BLOCKS > 0 asks ptxas (launch_bounds) to fit that many blocks per
      SM in the register file.
    - UNROLL_RING (with DOUBLE): the k loop steps by STAGES slices, one
      copy of the slice's code per stage, so every stage offset is a
      constant (no wrap, immediate addresses); slices beyond K skip theirs."""
    WARPS_M, WARPS_N = BM // WM, BN // WN
    THREADS = 32 * WARPS_M * WARPS_N
    MI, NI = WM // 16, WN // 8
    KSTEPS = BK // 16
    LDA, LDB = BK + PAD, BN + PAD
    A_STAGE = BM * LDA
    STAGE = A_STAGE + BK * LDB  # halves per stage: A then B
    RING = STAGES * STAGE
    A_CPR, B_CPR = BK // 8, BN // 8  # 16-byte copies per row
    A_COPIES, B_COPIES = BM * BK // 8 // THREADS, BK * BN // 8 // THREADS  # per thread and slice
    A_ROWS_STEP, B_ROWS_STEP = THREADS // A_CPR, THREADS // B_CPR  # rows between one thread's copies
    FA, FB = MI * 4, NI * 2  # registers of one buffer of A and B fragments
    BUFFERS = 2 if DOUBLE else 1
    ACC = MI * NI * 4
    # BK / 16 steps per slice, even: every slice starts in fragment buffer 0.
    assert BK % 32 == 0 and NI % 2 == 0 and THREADS % A_CPR == 0 and THREADS % B_CPR == 0
    assert A_COPIES * THREADS * 8 == BM * BK and B_COPIES * THREADS * 8 == BK * BN
    assert not UNROLL_RING or (DOUBLE and STAGES <= 4)
    options = dict(launch_bounds=(THREADS, MIN_BLOCKS)) if MIN_BLOCKS else {}

    @cuda.jit(device=True, inline=True)
    def load_fragments(smem, af, bf, buf, a_at, b_at, kk):
        """Step kk's A and B fragments (ldmatrix) into register buffer buf."""
        for mi in range(MI):
            r = mma.ldmatrix(smem, a_at + mi * 16 * LDA + kk)
            for j in range(4):
                af[buf * FA + mi * 4 + j] = r[j]
        for p in range(NI // 2):
            r = mma.ldmatrix(smem, b_at + kk * LDB + p * 16, 4, trans=True)
            for j in range(4):
                bf[buf * FB + p * 4 + j] = r[j]

    @cuda.jit(device=True, inline=True)
    def mmas(af, bf, acc, buf):
        """The warp tile's MMAs on the fragments of register buffer buf."""
        for mi in range(MI):
            o = buf * FA + mi * 4
            a = (af[o], af[o + 1], af[o + 2], af[o + 3])
            for ni in range(NI):
                c = (mi * NI + ni) * 4
                d = mma.mma_sync(mma.m16n8k16_f16, a, (bf[buf * FB + ni * 2], bf[buf * FB + ni * 2 + 1]),
                                 (acc[c], acc[c + 1], acc[c + 2], acc[c + 3]))
                for j in range(4):
                    acc[c + j] = d[j]

    @cuda.jit(device=True, inline=True)
    def copy_slice(A, B, smem, ws, a_dst, b_dst, a_src, b_src, a_row_step, b_row_step):
        """This thread's cp.async of one slice of A and B into the stage at ws."""
        for i in range(A_COPIES):
            mma.cp_async(smem, ws + a_dst + i * A_ROWS_STEP * LDA, A, a_src + i * a_row_step)
        for i in range(B_COPIES):
            mma.cp_async(smem, ws + b_dst + i * B_ROWS_STEP * LDB, B, b_src + i * b_row_step)

    @cuda.jit(device=True, inline=True)
    def double_slice(A, B, smem, af, bf, acc, copy, ws, a_dst, b_dst, a_src, b_src, a_row_step, b_row_step,
                     rs, rs_next, a_frag, b_frag):
        """One slice with double-buffered fragments, reading the stage at rs
        (its first fragments already in buffer 0): the copy of slice
        kt + STAGES - 1 into the stage at ws (if `copy`), the slice's steps,
        the barrier, the next slice's first fragments from rs_next, the last
        MMAs."""
        # The stage at ws is the one slice kt - 1 used: every warp passed a
        # barrier after its last read there.
        if copy:
            copy_slice(A, B, smem, ws, a_dst, b_dst, a_src, b_src, a_row_step, b_row_step)
        mma.commit_group()
        for ks in range(KSTEPS - 1):  # the next step's fragments, then this one's MMAs
            load_fragments(smem, af, bf, (ks + 1) % 2, rs + a_frag, rs + b_frag, (ks + 1) * 16)
            mmas(af, bf, acc, ks % 2)
        # Slice kt + 1 has landed (everyone's copies): its first fragments load
        # under the MMAs that finish this slice (past the last slice they read a
        # stage nobody uses).
        mma.wait_group(STAGES - 2)
        cuda.syncthreads()
        load_fragments(smem, af, bf, 0, rs_next + a_frag, rs_next + b_frag, 0)
        mmas(af, bf, acc, 1)

    @cuda.jit(**options)
    def gemm(A, B, C, M, N, K):
        smem = cuda.shared.array(0, float16)
        acc = cuda.local.array(ACC, float32)
        af = cuda.local.array(BUFFERS * FA, uint32)
        bf = cuda.local.array(BUFFERS * FB, uint32)
        t = cuda.threadIdx.x
        lane = t % 32
        warp = t // 32
        wm = (warp // WARPS_N) * WM
        wn = (warp % WARPS_N) * WN
        # Grouped launch order (1D grid).
        tiles_m = M // BM
        tiles_n = N // BN
        pid = cuda.blockIdx.x
        width = GROUP * tiles_n
        first = (pid // width) * GROUP
        rows = min(tiles_m - first, GROUP)
        bm = (first + (pid % width) % rows) * BM
        bn = ((pid % width) // rows) * BN
        for mi in range(MI):  # nested as the MMAs are, so that every index is a constant
            for ni in range(NI):
                for j in range(4):
                    acc[(mi * NI + ni) * 4 + j] = float32(0)
        # This thread's copies: (row, 16-byte column) of its first chunk of A and of B.
        ar, aq = t // A_CPR, t % A_CPR
        br, bq = t // B_CPR, t % B_CPR
        a_dst = ar * LDA + aq * 8
        b_dst = A_STAGE + br * LDB + bq * 8
        a_src = (bm + ar) * K + aq * 8  # advances by BK per slice
        b_src = br * N + bn + bq * 8  # advances by BK * N per slice
        a_row_step = A_ROWS_STEP * K
        b_row_step = B_ROWS_STEP * N
        slices = K // BK
        ws = 0  # the stage the next slice is copied into
        for s in range(STAGES - 1):
            if s < slices:
                copy_slice(A, B, smem, ws, a_dst, b_dst, a_src, b_src, a_row_step, b_row_step)
            mma.commit_group()
            a_src += BK
            b_src += BK * N
            ws += STAGE
        # The lane's ldmatrix row within a 16 x 16 block, relative to a stage.
        lrow = lane % 16
        lcol = (lane // 16) * 8
        a_frag = (wm + lrow) * LDA + lcol
        b_frag = A_STAGE + lrow * LDB + wn + lcol
        rs = 0  # the stage being read
        if DOUBLE:
            mma.wait_group(STAGES - 2)
            cuda.syncthreads()
            load_fragments(smem, af, bf, 0, a_frag, b_frag, 0)
        if DOUBLE and UNROLL_RING:
            # Slice kt0 + i reads stage i and copies into stage (i - 1) % STAGES.
            for kt0 in range(0, slices, STAGES):
                double_slice(A, B, smem, af, bf, acc, kt0 + STAGES - 1 < slices, (STAGES - 1) * STAGE, a_dst,
                             b_dst, a_src, b_src, a_row_step, b_row_step, 0, STAGE, a_frag, b_frag)
                a_src += BK
                b_src += BK * N
                if kt0 + 1 < slices:
                    double_slice(A, B, smem, af, bf, acc, kt0 + STAGES < slices, 0, a_dst, b_dst, a_src, b_src,
                                 a_row_step, b_row_step, STAGE, (2 % STAGES) * STAGE, a_frag, b_frag)
                    a_src += BK
                    b_src += BK * N
                if STAGES > 2 and kt0 + 2 < slices:
                    double_slice(A, B, smem, af, bf, acc, kt0 + STAGES + 1 < slices, STAGE, a_dst, b_dst, a_src,
                                 b_src, a_row_step, b_row_step, 2 * STAGE, (3 % STAGES) * STAGE, a_frag, b_frag)
                    a_src += BK
                    b_src += BK * N
                if STAGES > 3 and kt0 + 3 < slices:
                    double_slice(A, B, smem, af, bf, acc, kt0 + STAGES + 2 < slices, 2 * STAGE, a_dst, b_dst,
                                 a_src, b_src, a_row_step, b_row_step, 3 * STAGE, 0, a_frag, b_frag)
                    a_src += BK
                    b_src += BK * N
        elif DOUBLE:
            for kt in range(slices):
                rs_next = rs + STAGE
                if rs_next == RING:
                    rs_next = 0
                double_slice(A, B, smem, af, bf, acc, kt + STAGES - 1 < slices, ws, a_dst, b_dst, a_src, b_src,
                             a_row_step, b_row_step, rs, rs_next, a_frag, b_frag)
                a_src += BK
                b_src += BK * N
                ws += STAGE
                if ws == RING:
                    ws = 0
                rs = rs_next
        else:
            for kt in range(slices):
                mma.wait_group(STAGES - 2)  # slice kt has landed (everyone's copies after the barrier)
                cuda.syncthreads()
                # Slice kt + STAGES - 1 into the stage slice kt - 1 used: every warp
                # passed the barrier after its last read there.
                if kt + STAGES - 1 < slices:
                    copy_slice(A, B, smem, ws, a_dst, b_dst, a_src, b_src, a_row_step, b_row_step)
                mma.commit_group()
                a_src += BK
                b_src += BK * N
                ws += STAGE
                if ws == RING:
                    ws = 0
                for kk in range(0, BK, 16):
                    load_fragments(smem, af, bf, 0, rs + a_frag, rs + b_frag, kk)
                    mmas(af, bf, acc, 0)
                rs += STAGE
                if rs == RING:
                    rs = 0
        # The lane's two adjacent accumulators of a row are one 64-bit store
        # (st.global.v2.f32) through a uint64 view of C, from a float32 pair
        # viewed as uint64 (registers once LLVM has promoted it).
        g = lane // 4
        tq = lane % 4
        pair = cuda.local.array(2, float32)
        pair64 = pair.view(np.uint64)
        Cw = C.view(np.uint64)[bm + wm + g:, (bn + wn) // 2 + tq:]
        for mi in range(MI):
            for ni in range(NI):
                o = (mi * NI + ni) * 4
                pair[0] = acc[o]
                pair[1] = acc[o + 1]
                Cw[mi * 16, ni * 4] = pair64[0]
                pair[0] = acc[o + 2]
                pair[1] = acc[o + 3]
                Cw[mi * 16 + 8, ni * 4] = pair64[0]

    return gemm, THREADS, 2 * RING


VARIANTS = {
    "128x128x32 warps 64x32, 3 stages": dict(BM=128, BN=128, BK=32, WM=64, WN=32, STAGES=3),
    "128x128x32 warps 64x32, 4 stages": dict(BM=128, BN=128, BK=32, WM=64, WN=32, STAGES=4),
    "128x256x32 warps 64x64, 3 stages": dict(BM=128, BN=256, BK=32, WM=64, WN=64, STAGES=3),
    "256x128x32 warps 64x64, 3 stages": dict(BM=256, BN=128, BK=32, WM=64, WN=64, STAGES=3),
    "128x128x32 warps 64x64, 4 stages": dict(BM=128, BN=128, BK=32, WM=64, WN=64, STAGES=4),
    "128x128x64 warps 64x32, 3 stages": dict(BM=128, BN=128, BK=64, WM=64, WN=32, STAGES=3),
    "128x256x64 warps 64x64, 3 stages": dict(BM=128, BN=256, BK=64, WM=64, WN=64, STAGES=3),
    "128x128x64 warps 64x32, 4 stages": dict(BM=128, BN=128, BK=64, WM=64, WN=32, STAGES=4),
    "128x128x64 warps 64x64, 3 stages": dict(BM=128, BN=128, BK=64, WM=64, WN=64, STAGES=3),
    "128x256x64 warps 64x64, 4 stages": dict(BM=128, BN=256, BK=64, WM=64, WN=64, STAGES=4),
    "64x64x32 warps 32x32, 4 stages": dict(BM=64, BN=64, BK=32, WM=32, WN=32, STAGES=4),
    # make_pipelined_gemm: carried stage offsets, grouped launch order; fragments
    # double-buffered unless "single"; "2 blocks/SM" caps registers at 128.
    "pipelined 128x128x64 warps 64x32, 3 stages, group 8, 2 blocks/SM":
        dict(pipelined=True, BM=128, BN=128, BK=64, WM=64, WN=32, STAGES=3, GROUP=8, MIN_BLOCKS=2),
    "pipelined 128x128x64 warps 64x32, 3 stages, group 16, 2 blocks/SM":
        dict(pipelined=True, BM=128, BN=128, BK=64, WM=64, WN=32, STAGES=3, GROUP=16, MIN_BLOCKS=2),
    "pipelined 128x128x64 warps 64x32, 3 stages, group 1, 2 blocks/SM":
        dict(pipelined=True, BM=128, BN=128, BK=64, WM=64, WN=32, STAGES=3, GROUP=1, MIN_BLOCKS=2),
    "pipelined 128x128x64 warps 64x32, 3 stages, group 8":
        dict(pipelined=True, BM=128, BN=128, BK=64, WM=64, WN=32, STAGES=3, GROUP=8),
    "pipelined 128x128x64 warps 64x32, 3 stages, group 8, single":
        dict(pipelined=True, BM=128, BN=128, BK=64, WM=64, WN=32, STAGES=3, GROUP=8, DOUBLE=False),
    "pipelined 128x128x64 warps 64x32, 3 stages, group 8, 2 blocks/SM, ring unrolled":
        dict(pipelined=True, BM=128, BN=128, BK=64, WM=64, WN=32, STAGES=3, GROUP=8, MIN_BLOCKS=2,
             UNROLL_RING=True),
    "pipelined 128x128x64 warps 64x64, 3 stages, group 8, ring unrolled":
        dict(pipelined=True, BM=128, BN=128, BK=64, WM=64, WN=64, STAGES=3, GROUP=8, UNROLL_RING=True),
    "pipelined 128x128x64 warps 64x64, 3 stages, group 8":
        dict(pipelined=True, BM=128, BN=128, BK=64, WM=64, WN=64, STAGES=3, GROUP=8),
    "pipelined 128x128x32 warps 64x64, 4 stages, group 8":
        dict(pipelined=True, BM=128, BN=128, BK=32, WM=64, WN=64, STAGES=4, GROUP=8),
    "pipelined 128x256x64 warps 64x64, 3 stages, group 8":
        dict(pipelined=True, BM=128, BN=256, BK=64, WM=64, WN=64, STAGES=3, GROUP=8),
    "pipelined 128x128x32 warps 64x64, 4 stages, group 8, ring unrolled":
        dict(pipelined=True, BM=128, BN=128, BK=32, WM=64, WN=64, STAGES=4, GROUP=8, UNROLL_RING=True),
    "pipelined 128x256x64 warps 64x64, 3 stages, group 8, ring unrolled":
        dict(pipelined=True, BM=128, BN=256, BK=64, WM=64, WN=64, STAGES=3, GROUP=8, UNROLL_RING=True),
    "pipelined 128x128x32 warps 64x32, 4 stages, group 8, 2 blocks/SM, ring unrolled":
        dict(pipelined=True, BM=128, BN=128, BK=32, WM=64, WN=32, STAGES=4, GROUP=8, MIN_BLOCKS=2,
             UNROLL_RING=True),
    "pipelined 128x128x32 warps 64x32, 4 stages, group 8, 2 blocks/SM":
        dict(pipelined=True, BM=128, BN=128, BK=32, WM=64, WN=32, STAGES=4, GROUP=8, MIN_BLOCKS=2),
    "pipelined 64x64x32 warps 32x32, 4 stages, group 8":
        dict(pipelined=True, BM=64, BN=64, BK=32, WM=32, WN=32, STAGES=4, GROUP=8),
    "pipelined 64x64x64 warps 32x32, 2 stages, group 2":
        dict(pipelined=True, BM=64, BN=64, BK=64, WM=32, WN=32, STAGES=2, GROUP=2),
    "pipelined 64x64x64 warps 32x32, 2 stages, group 2, single":
        dict(pipelined=True, BM=64, BN=64, BK=64, WM=32, WN=32, STAGES=2, GROUP=2, DOUBLE=False),
    "pipelined 64x64x64 warps 64x64, 2 stages, group 2":
        dict(pipelined=True, BM=64, BN=64, BK=64, WM=64, WN=64, STAGES=2, GROUP=2),
    "pipelined 64x64x32 warps 32x32, 3 stages, group 8, ring unrolled":
        dict(pipelined=True, BM=64, BN=64, BK=32, WM=32, WN=32, STAGES=3, GROUP=8, UNROLL_RING=True),
    "pipelined 64x64x32 warps 32x32, 4 stages, group 8, ring unrolled":
        dict(pipelined=True, BM=64, BN=64, BK=32, WM=32, WN=32, STAGES=4, GROUP=8, UNROLL_RING=True),
}
# Variants whose shared memory fits the 48 KiB every device (and the CPU
# backend's model) gives without opting in.
SMALL = [
    "64x64x32 warps 32x32, 4 stages",
    "pipelined 64x64x32 warps 32x32, 4 stages, group 8",
    "pipelined 64x64x64 warps 32x32, 2 stages, group 2",
    "pipelined 64x64x64 warps 32x32, 2 stages, group 2, single",
    "pipelined 64x64x64 warps 64x64, 2 stages, group 2",
    "pipelined 64x64x32 warps 32x32, 3 stages, group 8, ring unrolled",
    "pipelined 64x64x32 warps 32x32, 4 stages, group 8, ring unrolled",
]
_built = {}


def variant(name):
    if name not in _built:
        cfg = dict(VARIANTS[name])
        factory = make_pipelined_gemm if cfg.pop("pipelined", False) else make_gemm
        _built[name] = (factory(**cfg), VARIANTS[name])
    return _built[name]


def launch(name, A, B, C):
    (kernel, threads, shared), cfg = variant(name)
    M, K = A.shape
    N = B.shape[1]
    assert M % cfg["BM"] == 0 and N % cfg["BN"] == 0 and K % cfg["BK"] == 0, "sizes must be multiples of the tile"
    if cfg.get("pipelined"):  # a 1D grid in grouped order
        grid = (N // cfg["BN"]) * (M // cfg["BM"])
    else:
        grid = (N // cfg["BN"], M // cfg["BM"])
    kernel[grid, threads, 0, shared](A, B, C, M, N, K)


def check(name, M, N, K, seed=7):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((M, K)).astype(np.float16)
    B = rng.standard_normal((K, N)).astype(np.float16)
    C = np.zeros((M, N), np.float32)
    launch(name, A, B, C)
    exact = A.astype(np.float64) @ B.astype(np.float64)
    # Products of fp16 values are exact in fp32; K float32 additions in any
    # order (rounded or truncated) stay within K * 2**-23 * sum |a b|.
    bound = K * 2.0**-23 * (np.abs(A).astype(np.float64) @ np.abs(B).astype(np.float64))
    assert (np.abs(C - exact) <= bound).all(), (name, np.abs(C - exact).max())
    # NumPy's float32 product of the fp16 inputs, as the reference.
    assert np.allclose(C, A.astype(np.float32) @ B.astype(np.float32), rtol=1e-4, atol=1e-3)


if __name__ == "__main__":
    if cuda.backend() == "cuda":
        for name in VARIANTS:
            check(name, 256, 256, 192)
    else:  # the CPU backend's device model has 48 KiB of shared memory per block
        for name in SMALL:
            check(name, 192, 128, 192)
    print("mma gemm ok")
