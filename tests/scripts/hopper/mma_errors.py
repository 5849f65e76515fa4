# cuda.mma's mistakes are TypingErrors at the offending argument: a kind
# that is not one, fragments of the wrong register count or type, ldmatrix of
# a 32-bit array or an x3, a wait_group count computed at run time, and
# fp8 (or any) mma.sync compiled for a GPU that lacks it (fp8 needs compute
# capability 8.9, f16 8.0). With bounds checks a cp.async (and, on the CPU
# backend, an ldmatrix row) reaching outside its array is an IndexError.
# stdout: mma errors: 9 checks passed
# stdout: mma bounds: ok
import numpy as np
from _typing_errors import TypingErrorChecks
from numba import cuda, float16, float32, uint32

mma = cuda.mma
errors = TypingErrorChecks(__file__)
expect = errors.expect


def ptx_of(f, sig, cc=None):
    return lambda: cuda.compile_ptx(f, sig, cc=cc)


def bad_kind(R, D):
    x = R[0]
    D[0] = mma.mma_sync(cuda.wmma.row_major, (x, x, x, x), (x, x), (0.0, 0.0, 0.0, 0.0))[0]


def short_a(R, D):
    x = R[0]
    D[0] = mma.mma_sync(mma.m16n8k16_f16, (x, x, x), (x, x), (0.0, 0.0, 0.0, 0.0))[0]


def float_b(R, D):
    x = R[0]
    y = D[0]
    D[0] = mma.mma_sync(mma.m16n8k16_f16, (x, x, x, x), (y, y), (0.0, 0.0, 0.0, 0.0))[0]


def short_c(R, D):
    x = R[0]
    D[0] = mma.mma_sync(mma.m16n8k16_f16, (x, x, x, x), (x, x), (0.0, 0.0))[0]


def ldmatrix_f32(R, D):
    s = cuda.shared.array(64, float32)
    R[0] = mma.ldmatrix(s, 0)[0]


def ldmatrix_x3(R, D):
    s = cuda.shared.array(64, float16)
    R[0] = mma.ldmatrix(s, 0, 3)[0]


def wait_runtime(R, D):
    mma.wait_group(R[0])


def fp8_on_ampere(R, D):
    x = R[0]
    D[0] = mma.mma_sync(mma.m16n8k32_e4m3, (x, x, x, x), (x, x), (0.0, 0.0, 0.0, 0.0))[0]


def f16_on_turing(R, D):
    x = R[0]
    D[0] = mma.mma_sync(mma.m16n8k16_f16, (x, x, x, x), (x, x), (0.0, 0.0, 0.0, 0.0))[0]


sig = (uint32[::1], float32[::1])
expect("cuda.mma.mma_sync()'s kind must be one of cuda.mma.m16n8k16_f16, cuda.mma.m16n8k16_bf16, "
       "cuda.mma.m16n8k8_tf32, cuda.mma.m16n8k32_e4m3, cuda.mma.m16n8k32_e5m2", "bad_kind", "cuda.wmma.row_major",
       ptx_of(bad_kind, sig))
expect("cuda.mma.mma_sync(m16n8k16_f16)'s a must be a tuple of 4 32-bit integer registers", "short_a", "(x, x, x)",
       ptx_of(short_a, sig))
expect("cuda.mma.mma_sync(m16n8k16_f16)'s b must be a tuple of 2 32-bit integer registers", "float_b", "(y, y)",
       ptx_of(float_b, sig))
expect("cuda.mma.mma_sync(m16n8k16_f16)'s c must be a tuple of 4 numbers", "short_c", "(0.0, 0.0)",
       ptx_of(short_c, sig))
expect("the array's dtype must be float16, bfloat16, int16 or uint16, got array(float32, 1d, C)", "ldmatrix_f32",
       "s, 0", ptx_of(ldmatrix_f32, sig))
expect("cuda.mma.ldmatrix()'s num (the number of 8x8 matrices) must be the literal 1, 2 or 4", "ldmatrix_x3", "3)",
       ptx_of(ldmatrix_x3, sig))
expect("cuda.mma.wait_group()'s n (the groups left pending) must be a literal integer from 0 to 7", "wait_runtime",
       "R[0]", ptx_of(wait_runtime, sig))
expect("cuda.mma.mma_sync(cuda.mma.m16n8k32_e4m3) needs compute capability 8.9 or newer; this kernel is compiled for "
       "8.0", "fp8_on_ampere", "mma.mma_sync(", ptx_of(fp8_on_ampere, sig, cc=(8, 0)))
expect("cuda.mma.mma_sync(cuda.mma.m16n8k16_f16) needs compute capability 8.0 or newer; this kernel is compiled for "
       "7.5", "f16_on_turing", "mma.mma_sync(", ptx_of(f16_on_turing, sig, cc=(7, 5)))
print("mma errors: %d checks passed" % errors.checks)

bounds = 0


@cuda.jit(debug=True, opt=False)
def ldmatrix_overrun(M, out):
    s = cuda.shared.array(64, float16)
    for i in range(2):
        s[cuda.laneid * 2 + i] = M[cuda.laneid * 2 + i]
    cuda.syncwarp()
    r = mma.ldmatrix(s, cuda.laneid * 2, 1)  # lane 31's row ends at 69
    out[cuda.laneid] = r[0]


@cuda.jit(debug=True, opt=False)
def cp_async_overrun(M, out):
    s = cuda.shared.array(256, float16)
    # 16-byte aligned on both sides (cp.async's rule: a misaligned source is
    # a hardware fault on a GPU); lane 31 reads 256..263 of 256.
    mma.cp_async(s, 8 * cuda.laneid, M, 8 * cuda.laneid + 8)
    mma.commit_group()
    mma.wait_group(0)
    out[cuda.laneid] = uint32(s[8 * cuda.laneid])


cases = [(cp_async_overrun, "index 263 is out of bounds for axis 0 with size 256")]
# The lanes whose row is out of range stop at the check: on a GPU the rest of
# the warp would then reach ldmatrix (a .sync.aligned instruction) diverged,
# which PTX leaves undefined, so that case runs on the CPU backend only.
if cuda.backend() == "cpu":
    cases.append((ldmatrix_overrun, "index 69 is out of bounds for axis 0 with size 64"))
for kernel, message in cases:
    try:
        kernel[1, 32](np.arange(256, dtype=np.float16), np.zeros(32, np.uint32))
        raise AssertionError("no IndexError: " + message)
    except IndexError as e:
        assert message in str(e), str(e)
        bounds += 1
assert bounds == len(cases) == (2 if cuda.backend() == "cpu" else 1), bounds
print("mma bounds: ok")
