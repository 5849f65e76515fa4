# Eight Python threads launching at once: each owns a stream and device
# arrays, launches a shared kernel (compiled for several signatures while the
# others launch it) and a kernel of its own, many times, with host arrays
# staged too; every result is checked against NumPy on random data. Runs on
# both backends.
# stdout: threads load ok
import threading

import numpy as np
from numba import cuda

THREADS = 8
ROUNDS = 60


@cuda.jit
def axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def make_own_kernel(k):
    @cuda.jit
    def own(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] * x[i] + k
    return own


dtypes = [np.float32, np.float64, np.int32, np.int64]
errors = []
done = [0] * THREADS


def work(t):
    try:
        rng = np.random.default_rng(100 + t)
        stream = cuda.stream()
        own = make_own_kernel(t)
        dtype = dtypes[t % len(dtypes)]
        n = 1000 + 37 * t
        for r in range(ROUNDS):
            x = (rng.standard_normal(n) * 100).astype(dtype)
            y = (rng.standard_normal(n) * 100).astype(dtype)
            a = dtype(r % 7 + 1)
            dx = cuda.to_device(x, stream=stream)
            dy = cuda.to_device(y, stream=stream)
            dout = cuda.device_array(n, dtype=dtype, stream=stream)
            axpy[(n + 127) // 128, 128, stream](dout, a, dx, dy)
            got = dout.copy_to_host(stream=stream)
            stream.synchronize()
            want = (a * x + y).astype(dtype)
            if np.issubdtype(dtype, np.floating):  # a GPU contracts a*x+y into one fma: one rounding less
                bound = 2 * np.finfo(dtype).eps * (np.abs(a * x) + np.abs(y))
                assert np.all(np.abs(got.astype(np.float64) - want) <= bound), (got, want)
            else:
                np.testing.assert_array_equal(got, want)
            # A host array staged in and out by the launch itself.
            host_out = np.zeros(n, dtype=np.float64)
            own[(n + 63) // 64, 64, stream](host_out, x.astype(np.float64))
            stream.synchronize()
            np.testing.assert_allclose(host_out, x.astype(np.float64) ** 2 + t, rtol=1e-12)
            done[t] += 1
    except BaseException as e:  # reported by the main thread
        errors.append((t, e))


threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
for th in threads:
    th.start()
for th in threads:
    th.join()
assert not errors, errors
assert done == [ROUNDS] * THREADS, done
# One specialization per dtype the threads used, compiled while others launched.
assert len(axpy.overloads) == len(dtypes), list(axpy.overloads)
print("threads load ok")
