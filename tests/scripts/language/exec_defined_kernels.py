# Kernels and device functions defined in text given to exec() or compile()
# (as numba-cuda's own tests generate them) compile: cuhost remembers the
# text, so two exec'd functions with the same "<string>" file name each get
# their own source. exec() with no namespace still writes the caller's
# locals, and compile()'s result still runs.
# stdout: exec-defined kernels ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(5)
template = """
@cuda.jit(device=True)
def combine(a, b):
    return a {op} b

@cuda.jit
def kernel(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = combine(x[i], y[i])
"""
x = rng.standard_normal(300)
y = rng.standard_normal(300)
kernels = {}
for op in ("+", "*", "-"):
    ns = {"cuda": cuda}
    exec(template.format(op=op), ns)
    kernels[op] = ns["kernel"]
expected = {"+": x + y, "*": x * y, "-": x - y}
for op, kernel in kernels.items():
    out = np.zeros_like(x)
    kernel[3, 128](out, x, y)
    assert np.allclose(out, expected[op], rtol=1e-15, atol=0), op

code = compile("def scale(a, k):\n    a[cuda.grid(1)] *= k\n", "<generated>", "exec")
ns = {"cuda": cuda}
exec(code, ns)
a = rng.standard_normal(64)
ref = a * 2.5
cuda.jit(ns["scale"])[2, 32](a, 2.5)
assert np.allclose(a, ref, rtol=1e-15, atol=0)


def uses_caller_locals():
    exec("v = 41 + 1")
    return locals()["v"]


assert uses_caller_locals() == 42
print("exec-defined kernels ok")
