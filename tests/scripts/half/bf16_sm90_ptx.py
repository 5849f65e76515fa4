# bfloat16 arithmetic on sm_90 and newer is numba-cuda's: the PTX of
# cuda_bf16.hpp, add/sub/mul.bf16 without a rounding modifier (ptxas may
# fuse a multiply and an add, as it does under numba-cuda) and division
# through div.approx.f32 with the header's scaling of divisors of 2^126 and
# more. Older targets compute in float32 and round once. Results of single
# operations on random data and at the division's edges against float32
# arithmetic rounded to bfloat16 (the operations are exact in float32, and
# the header's division is correctly rounded).
# stdout: bf16 sm90 ok
import operator

import numpy as np

from numba import cuda
from numba.cuda import float32, void
from numba.cuda._internal.cuda_bf16 import nv_bfloat16

OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv}


def kernel_for(op):
    def k(x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = float32(op(nv_bfloat16(x[i]), nv_bfloat16(y[i])))

    return k


def to_bf16(v):  # float32 -> nearest bfloat16 (ties to even), as float32
    u = np.asarray(v, np.float32).view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return u.astype(np.uint32).view(np.float32)


sig = void(float32[::1], float32[::1], float32[::1])
for name, op in OPS.items():
    new, _ = cuda.compile_ptx(kernel_for(op), sig, cc=(9, 0))
    old, _ = cuda.compile_ptx(kernel_for(op), sig, cc=(8, 0))
    wanted = "div.approx.f32" if name == "div" else f"{name}.bf16 "
    assert wanted in new, (name, new)
    assert wanted not in old and f"{name}.rn.bf16" not in new, (name, old)

rng = np.random.default_rng(20261129)
n = 4096
x = to_bf16(rng.standard_normal(n).astype(np.float32) * 4)
y = to_bf16(rng.standard_normal(n).astype(np.float32) * 4)
# The division's edges: divisors of 2^126 and more (scaled by the header),
# a zero divisor, and quotients near the bottom of the range.
y[:4] = [2.0**126, -(2.0**127), 3.0 * 2.0**126, 0.0]
x[:4] = [1.5, 2.0**-100, -7.0, 1.0]
out = np.zeros(n, np.float32)
with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
    for name, op in OPS.items():
        k = cuda.jit(sig)(kernel_for(op))
        k[n // 256, 256](x, y, out)
        want = to_bf16(op(x, y))
        same = (out == want) | (np.isnan(out) & np.isnan(want))
        assert same.all(), (name, np.flatnonzero(~same)[:5], out[~same][:5], want[~same][:5])
print("bf16 sm90 ok")
