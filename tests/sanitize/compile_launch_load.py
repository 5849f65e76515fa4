# Load for LeakSanitizer (scripts/test.sh --sanitize runs it under an
# ASan build with detect_leaks=1): 1,000 distinct kernels compiled (exec'd
# source, each with its own constant, so none is a cache hit) and 100,000
# launches of one of them on the CPU backend, results checked. Without a
# sanitizer it still checks the results and that resident memory stays
# bounded over the launches. Counts: argv[1] kernels, argv[2] launches.
# At the end the kernels are dropped and must be freed by the collector
# (weak references die): LeakSanitizer's libpython suppression hides
# whatever is allocated under a call from Python, cuhost's objects
# included, so their release is checked here, not by LSan.
import gc
import resource
import sys
import weakref

import numpy as np
from numba import cuda

n_kernels = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
n_launch = int(sys.argv[2]) if len(sys.argv) > 2 else 100000

template = """
@cuda.jit
def kernel(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * {c} + {d}
"""
rng = np.random.default_rng(19)
x = rng.integers(-1000, 1000, 32).astype(np.int64)
out = np.zeros_like(x)
kernels = []
for c in range(n_kernels):
    ns = {"cuda": cuda}
    exec(template.format(c=c, d=c * 7 - 3), ns)
    ns["kernel"][1, 32](out, x)
    assert (out == x * c + (c * 7 - 3)).all(), c
    kernels.append(ns["kernel"])

k = kernels[-1]
d_out = cuda.to_device(out)
d_x = cuda.to_device(x)
rss = []
for j in range(n_launch):
    k[1, 32](d_out, d_x)
    if j % (n_launch // 4 or 1) == 0:
        rss.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
cuda.synchronize()
c = n_kernels - 1
assert (d_out.copy_to_host() == x * c + (c * 7 - 3)).all()
refs = [weakref.ref(kernel) for kernel in kernels]
del k, kernels, ns
gc.collect()
alive = sum(r() is not None for r in refs)
assert alive == 0, "%d of %d dropped kernels are still alive after gc.collect()" % (alive, len(refs))
print("compiled %d kernels, launched %d times; max RSS KiB at quarters: %s" % (n_kernels, n_launch, rss))
print("compile-launch load ok")
