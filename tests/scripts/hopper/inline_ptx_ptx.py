# cuda.inline_ptx on the GPU code path (compile_ptx works on both backends):
# the template lands in the PTX with the operands' registers, immediates stay
# immediates, outputs come back as one value or a tuple, `volatile=False` lets
# an unused asm go, and ptxas accepts the result for sm_90 when it is installed.
# stdout: inline_ptx ptx: 8 checks passed
import re

from _ptx_checks import PtxChecks, assemble
from numba import cuda, float32, int32, uint32, int64, float64, float16

ptx_checks = PtxChecks()
check = ptx_checks.check


def add(out, a, b):
    out[0] = cuda.inline_ptx("add.s32 %0, %1, %2;", "=r : r, r", a, b)


ptx, _ = cuda.compile_ptx(add, (int32[::1], int32, int32))
check(re.search(r"add\.s32 %r\d+, %r\d+, %r\d+;", ptx), ptx)
assemble(ptx)


def lanes(out, x):
    lane = cuda.inline_ptx("mov.u32 %0, %%laneid;", "=r", result=uint32)
    hi, lo = cuda.inline_ptx("mov.b64 {%1, %0}, %2;", "=r, =r : l", x, result=(uint32, uint32))
    out[0] = lane + hi + lo


ptx, _ = cuda.compile_ptx(lanes, (uint32[::1], int64))
check("%laneid" in ptx and re.search(r"mov\.b64 \{%r\d+, %r\d+\}, %rd\d+;", ptx), ptx)
assemble(ptx)


def lop3(out, a, b, c):
    # 0xE8: the majority function of three inputs, as an immediate.
    out[0] = cuda.inline_ptx("lop3.b32 %0, %1, %2, %3, %4;", "=r : r, r, r, n", a, b, c, 0xE8)


ptx, _ = cuda.compile_ptx(lop3, (uint32[::1], uint32, uint32, uint32))
check(re.search(r"lop3\.b32 %r\d+, %r\d+, %r\d+, %r\d+, 232;", ptx), ptx)
assemble(ptx)


def floats(out, x, y, h):
    out[0] = cuda.inline_ptx("fma.rn.f32 %0, %1, %2, %3;", "=f : f, f, f", x, y, 2.5)
    out[1] = cuda.inline_ptx("add.rn.f64 %0, %1, %1;", "=d : d", y * 1.0)
    out[2] = float32(cuda.inline_ptx("mul.f16 %0, %1, %1;", "=h : h", h, result=float16))


ptx, _ = cuda.compile_ptx(floats, (float64[::1], float32, float32, float16))
check(re.search(r"fma\.rn\.f32 %f\d+, %f\d+, %f\d+, %f\d+;", ptx), ptx)
check(re.search(r"add\.rn\.f64 %fd\d+, %fd\d+, %fd\d+;", ptx) and re.search(r"mul\.f16 %rs\d+", ptx), ptx)
assemble(ptx)


def fence(a):
    cuda.inline_ptx("fence.acq_rel.gpu;", ": : memory")
    a[0] = 1


ptx, _ = cuda.compile_ptx(fence, (int32[::1],))
check("fence.acq_rel.gpu;" in ptx, ptx)


def unused(a, x):
    cuda.inline_ptx("add.s32 %0, %1, 7;", "=r : r", x, volatile=False)
    cuda.inline_ptx("add.s32 %0, %1, 9;", "=r : r", x)
    a[0] = 1


ptx, _ = cuda.compile_ptx(unused, (int32[::1], int32))
check(", 7;" not in ptx and ", 9;" in ptx, ptx)
assemble(ptx)


def dollar(a, x):
    # `$` is an ordinary PTX character (labels); `%%` is one `%`.
    a[0] = cuda.inline_ptx("{ .reg .pred p$1; setp.ne.s32 p$1, %1, 0; selp.s32 %0, 5, 6, p$1; }", "=r : r", x)


ptx, _ = cuda.compile_ptx(dollar, (int32[::1], int32))
check("p$1" in ptx, ptx)
assemble(ptx)
print("inline_ptx ptx: %d checks passed" % ptx_checks.checks)
