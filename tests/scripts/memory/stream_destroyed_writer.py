# An array last written on a stream the script has since dropped (its
# cuda.stream() destroyed) is then used on another stream and freed: the
# ordering between streams must not hand the destroyed stream to the
# driver again (it once asked cuStreamGetCtx and cuEventRecord of it, a
# use after free inside the driver that crashed at exit). Results are
# checked against NumPy on random integer-valued data.
# backends: cuda
# stdout: destroyed writer ok
import ctypes
import gc

import numpy as np
from numba import cuda

# The null driver (CI's stand-in for libcuda) runs no kernel: there only the
# host path is checked, and it stops the process on a destroyed stream.
RUNS_KERNELS = not hasattr(ctypes.CDLL("libcuda.so.1"), "cuhostNullFailedCalls")


@cuda.jit
def scale(a, k):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * k + 1.0


rng = np.random.default_rng(11)
h = cuda.pinned_array(4096, np.float64)  # pinned: copies from it stay queued on their stream
for round_ in range(20):
    x = rng.integers(-1000, 1000, h.shape).astype(np.float64)  # exact arithmetic: no FMA rounding
    h[:] = x
    s1, s2 = cuda.stream(), cuda.stream()
    d = cuda.device_array(h.shape, np.float64)
    d.copy_to_device(h, stream=s1)  # last writer: s1 (the array holds no reference to it)
    s1.synchronize()
    del s1
    gc.collect()  # s1's stream is destroyed here
    scale[16, 256, s2](d, 3.0)  # reads and writes d on s2 after s1's write
    got = d.copy_to_host(stream=s2)
    s2.synchronize()
    if RUNS_KERNELS:
        np.testing.assert_array_equal(got, x * 3.0 + 1.0)
    # An array whose last writer is a destroyed stream, freed.
    s3 = cuda.stream()
    e = cuda.device_array(h.shape, np.float64)
    e.copy_to_device(h, stream=s3)
    del s3
    gc.collect()
    del e, d, s2
    gc.collect()
print("destroyed writer ok")
