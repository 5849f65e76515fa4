# inspect_types / inspect_llvm / inspect_asm after a launch on random data.
# stdout: inspect ok
import numpy as np
from numba import cuda


@cuda.jit
def axpb(out, x, a, b):
    i = cuda.grid(1)
    if i < out.size:
        t = a * x[i]
        out[i] = t + b


x = np.random.default_rng(5).standard_normal(64).astype(np.float32)
out = np.zeros_like(x)
axpb[2, 32](out, x, np.float32(2.0), np.float32(1.0))
np.testing.assert_allclose(out, 2 * x + 1, rtol=1e-6)

text = axpb.inspect_types()
assert "axpb" in text and "array(float32, 1d, C)" in text, text
assert "t = float32" in text and "i = int64" in text, text
assert "out[i] = t + b" in text, text

llvm = axpb.inspect_llvm()
# Keyed by argument types (numba-cuda's form), the IR as lowered for the GPU (before optimization).
assert [tuple(map(str, k)) for k in llvm] == [("array(float32, 1d, C)", "array(float32, 1d, C)", "float32",
                                              "float32")], list(llvm)
ir = next(iter(llvm.values()))
assert "define" in ir and "fmul" in ir, ir[:400]

asm = axpb.inspect_asm()
ptx = next(iter(asm.values()))
assert ".visible .entry" in ptx and ("fma.rn.f32" in ptx or "mul.rn.f32" in ptx or "mul.f32" in ptx), ptx
one = axpb.inspect_asm("void(float32[::1], float32[::1], float32, float32)")
assert isinstance(one, str) and ".visible .entry" in one
print("inspect ok")
