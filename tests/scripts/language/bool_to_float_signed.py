# A boolean turned into a signed integer and then a float: `b % m - 1` with
# b a comparison is -1.0 where b is False. LLVM folds it into a signed
# one-bit-to-float conversion (`sitofp i1`), which LLVM 19's NVPTX backend
# lowered as if unsigned (+1.0): a silent wrong result on the GPU, found by
# the CPU-against-CUDA fuzzer (seed 45258). cuhost rewrites those
# conversions before PTX is emitted (codegen/nvptx_conversions.h).
# Checked against NumPy on random data on either backend, and in the PTX.
# stdout: bool to float ok
import numpy as np
from numba import cuda


@cuda.jit
def chained(out, xs, ys, zs):
    i = cuda.grid(1)
    if i < xs.size:
        b = xs[i] < ys[i] < zs[i]
        out[i, 0] = b
        out[i, 1] = (b % 3037000493) - 1
        out[i, 2] = 2.5 * ((not b) - 1)


rng = np.random.default_rng(45258)
n = 1000
xs, ys, zs = (rng.integers(-50, 50, n) for _ in range(3))
out = np.zeros((n, 3))
chained[(n + 127) // 128, 128](out, xs, ys, zs)
b = (xs < ys) & (ys < zs)
assert 100 < b.sum() < 900  # both outcomes are exercised
want = np.stack([b.astype(np.float64), b.astype(np.int64) % 3037000493 - 1.0,
                 2.5 * ((~b).astype(np.int64) - 1)], axis=1)
assert np.array_equal(out, want), np.argwhere(out != want)[:5]

# The PTX: the False case is the constant -1.0 (0dBFF0000000000000) in a
# select, not a `selp.u32 1, 0` converted as signed.
ptx, _ = cuda.compile_ptx(chained.py_func, "void(float64[:, ::1], int64[::1], int64[::1], int64[::1])")
lines = [ln.strip() for ln in ptx.splitlines()]
assert any(ln.startswith("selp.f64") and "0dBFF0000000000000" in ln for ln in lines), "\n".join(lines)
for k, ln in enumerate(lines[:-1]):
    if ln.startswith("selp.u32") and ln.endswith(", 1, 0, " + ln.split()[-1]):
        assert not lines[k + 1].startswith("cvt.rn.f64.s32"), (ln, lines[k + 1])
print("bool to float ok")
