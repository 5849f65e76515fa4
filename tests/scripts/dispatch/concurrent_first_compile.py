# Threads that launch one lazily compiled kernel for the first time at once:
# each waits for the capture another thread started (capture runs Python,
# which may release the GIL) instead of compiling an uncaptured function
# (which was an internal error). Repeated on fresh kernels, checked against
# NumPy on random data.
# stdout: concurrent first compile ok
import threading

import numpy as np
from numba import cuda

rng = np.random.default_rng(21)
for round_ in range(20):
    @cuda.jit
    def axpb(out, x, a, b):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * x[i] + b

    xs = [rng.standard_normal(257) for _ in range(8)]
    outs = [np.zeros(257) for _ in range(8)]
    errors = []

    def work(k):
        try:
            axpb[3, 128](outs[k], xs[k], float(k), 0.5)
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for k in range(8):
        assert np.allclose(outs[k], k * xs[k] + 0.5, rtol=1e-15, atol=1e-15), (round_, k)
print("concurrent first compile ok")
