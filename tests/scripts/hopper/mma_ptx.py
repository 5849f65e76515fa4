# cuda.mma on the GPU code path (compile_ptx works on both backends): each
# kind becomes its mma.sync instruction (fp8 through inline PTX, with the
# PTX ISA raised to 8.4, which fp8 mma needs), ldmatrix/cp.async/commit/wait
# theirs with shared and global state spaces, the example GEMM's fragments
# and accumulators stay in registers (no local memory), the pipelined
# variant loads every fragment it uses (30 ldmatrix), and ptxas accepts
# it all for sm_90 when it is installed.
# stdout: mma ptx: 15 checks passed
import os
import re
import sys

from _ptx_checks import PtxChecks, assemble
from numba import cuda, float16, float32, int64, uint32

mma = cuda.mma
ptx_checks = PtxChecks()
check = ptx_checks.check


def make_kernel(kind):
    def one(Aw, Bw, C, D):
        g = cuda.laneid >> 2
        t = cuda.laneid & 3
        acc = (C[g, 2 * t], C[g, 2 * t + 1], C[g + 8, 2 * t], C[g + 8, 2 * t + 1])
        acc = mma.mma_sync(kind, (Aw[g, t], Aw[g + 8, t], Aw[g, t + 4], Aw[g + 8, t + 4]), (Bw[g, t], Bw[g, t + 4]),
                           acc)
        D[g, 2 * t] = acc[0] + acc[1] + acc[2] + acc[3]

    return one


sig = (uint32[:, ::1], uint32[:, ::1], float32[:, ::1], float32[:, ::1])
for name, ptx_type in (("m16n8k16_f16", "m16n8k16.row.col.f32.f16.f16.f32"),
                       ("m16n8k16_bf16", "m16n8k16.row.col.f32.bf16.bf16.f32"),
                       ("m16n8k8_tf32", "m16n8k8.row.col.f32.tf32.tf32.f32"),
                       ("m16n8k32_e4m3", "m16n8k32.row.col.f32.e4m3.e4m3.f32"),
                       ("m16n8k32_e5m2", "m16n8k32.row.col.f32.e5m2.e5m2.f32")):
    ptx, _ = cuda.compile_ptx(make_kernel(getattr(mma, name)), sig, cc=(9, 0))
    check("mma.sync.aligned." + ptx_type in ptx, (name, ptx))
    if "e4m3" in name or "e5m2" in name:
        check(re.search(r"^\.version 8\.4$", ptx, re.M), ptx[:300])
    assemble(ptx)


def copies(M, out):
    tile = cuda.shared.array(256, float16, alignment=16)
    lane = cuda.laneid
    mma.cp_async(tile, 8 * lane, M, 8 * lane)
    mma.commit_group()
    mma.wait_group(1)
    cuda.syncthreads()
    r = mma.ldmatrix(tile, lane * 8, 4, trans=True)
    s = mma.ldmatrix(tile, lane * 8, 2)
    out[lane] = r[0] + r[3] + s[1]


ptx, _ = cuda.compile_ptx(copies, (float16[::1], uint32[::1]), cc=(9, 0))
for instruction in ("cp.async.cg.shared.global [", "cp.async.commit_group;", "cp.async.wait_group 1;",
                    "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.shared.b16"):
    assert instruction in ptx, (instruction, ptx)
check(True, "copies")
assemble(ptx)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "examples"))
import mma_gemm  # noqa: E402

(gemm, _, _), _ = mma_gemm.variant("128x128x32 warps 64x32, 3 stages")
ptx, _ = cuda.compile_ptx(gemm.py_func, (float16[:, ::1], float16[:, ::1], float32[:, ::1], int64, int64, int64),
                          cc=(9, 0))
check(ptx.count("mma.sync.aligned.m16n8k16") == 32, ptx.count("mma.sync"))  # 2 k16 steps x 4 x 4 tiles, unrolled
check("ld.local" not in ptx and "st.local" not in ptx, "the accumulators went to local memory")
assemble(ptx)

# The pipelined variant: 3 slices of 4 k16 steps' fragments per slice, the
# next slice's first ones loaded after the barrier (30 ldmatrix: 6 before the
# loop, 24 in it; all of them feed MMAs), no `kt % STAGES` (no mul.hi), and
# launch_bounds=(256, 2) reaching ptxas as .maxntid / .minnctapersm.
(gemm, _, _), _ = mma_gemm.variant("pipelined 128x128x64 warps 64x32, 3 stages, group 8, 2 blocks/SM")
ptx, _ = cuda.compile_ptx(gemm.py_func, (float16[:, ::1], float16[:, ::1], float32[:, ::1], int64, int64, int64),
                          cc=(9, 0), launch_bounds=(256, 2))
check(ptx.count("mma.sync.aligned.m16n8k16") == 64, ptx.count("mma.sync"))
check(ptx.count("ldmatrix.sync.aligned") == 30, ptx.count("ldmatrix"))
check("mul.hi" not in ptx, "a stage index computed with a division")
check("ld.local" not in ptx and "st.local" not in ptx, "the fragments went to local memory")
check(re.search(r"\.maxntid 256, 1, 1\s+\.minnctapersm 2", ptx), "launch bounds missing")
assemble(ptx)
print("mma ptx: %d checks passed" % ptx_checks.checks)
