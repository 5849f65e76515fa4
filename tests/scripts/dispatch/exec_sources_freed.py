# Kernels defined by source text given to exec() or compile() compile from
# that text, and the text is kept only while its code object lives: a script
# that execs kernels in a loop does not keep every code object for the
# process. The same text exec'd twice, the first copy dropped before the
# second kernel's first launch, still compiles; so does compile() + exec().
# stdout: exec sources freed ok
import gc
import weakref

import numpy as np
from numba import cuda

rng = np.random.default_rng(41)
x = rng.integers(-10**6, 10**6, 500).astype(np.int64)
d_x = cuda.to_device(x)

SOURCE = """
@cuda.jit
def k(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * {c} - 7
"""


def run(kernel, c):
    out = cuda.device_array_like(d_x)
    kernel[4, 128](out, d_x)
    np.testing.assert_array_equal(out.copy_to_host(), x * c - 7)


code_refs = []
for c in range(1, 30):
    ns = {"cuda": cuda}
    exec(SOURCE.format(c=c), ns)
    run(ns["k"], c)
    code_refs.append(weakref.ref(ns["k"].py_func.__code__))
    del ns
gc.collect()
alive = sum(r() is not None for r in code_refs)
assert alive == 0, "%d of %d exec'd code objects are still alive after gc.collect()" % (alive, len(code_refs))

# Equal text twice: the first namespace is dropped before the second kernel compiles.
first, second = {"cuda": cuda}, {"cuda": cuda}
exec(SOURCE.format(c=5), first)
exec(SOURCE.format(c=5), second)
del first
gc.collect()
run(second["k"], 5)

# compile() then exec() of the code object.
third = {"cuda": cuda}
exec(compile(SOURCE.format(c=-3), "<generated>", "exec"), third)
gc.collect()
run(third["k"], -3)
print("exec sources freed ok")
