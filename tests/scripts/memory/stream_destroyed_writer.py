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

# The same with a stream the script made and destroyed through the driver
# bindings (an external stream to cuhost): cuStreamDestroy of the bindings
# waits for the stream's work and retires the handle as ~Stream does. Without
# that, the array freed at exit handed the destroyed stream to the driver
# (a crash at exit on the H200, hostapi/driver_api.py).
from cuda.bindings import driver as binding  # noqa: E402

ctx = cuda.current_context()
for round_ in range(5):
    x = rng.integers(-1000, 1000, h.shape).astype(np.float64)
    h[:] = x
    result, raw = binding.cuStreamCreate(0)
    assert result == binding.CUresult.CUDA_SUCCESS
    ext = ctx.create_external_stream(int(raw))
    f = cuda.device_array(h.shape, np.float64)
    f.copy_to_device(h, stream=ext)  # last writer: the driver's stream
    (result,) = binding.cuStreamDestroy(raw)
    assert result == binding.CUresult.CUDA_SUCCESS
    del ext
    gc.collect()
    scale[16, 256](f, 3.0)  # on the default stream, after the destroyed stream's write
    got = f.copy_to_host()
    if RUNS_KERNELS:
        np.testing.assert_array_equal(got, x * 3.0 + 1.0)
    kept = f if round_ == 4 else None  # the last one is freed at exit
    del f
    gc.collect()
print("destroyed writer ok")
