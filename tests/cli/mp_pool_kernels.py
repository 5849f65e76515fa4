"""A multiprocessing.Pool whose workers launch a kernel, for test_cli.py.

Run as `cuhost mp_pool_kernels.py METHOD` (spawn, forkserver or fork): the
parent launches the kernel once, then four tasks run in two workers started
with METHOD, each checking its result against NumPy on random data.
"""
import multiprocessing as mp
import sys

import numpy as np
from numba import cuda


@cuda.jit
def scale(x, out, k):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * k


def work(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(1000).astype(np.float32)
    out = np.zeros_like(x)
    k = np.float32(seed + 1.5)
    scale[8, 128](x, out, k)
    return bool(np.array_equal(out, x * k)), cuda.backend()


if __name__ == "__main__":
    method = sys.argv[1]
    assert work(99)[0]  # the parent used the backend before its children start
    with mp.get_context(method).Pool(2) as pool:
        results = pool.map(work, range(4))
    backends = {b for _, b in results}
    assert all(ok for ok, _ in results) and len(backends) == 1, results
    print("%s: %d workers' results match NumPy on %s" % (method, len(results), backends.pop()))
