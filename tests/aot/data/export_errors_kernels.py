# The script tests/aot/test_export_errors.py exports: two kernels (one with a
# complex parameter, which has no C++ form) and a graph whose output array is
# named by no global (so it cannot become a parameter).
import numpy as np
from numba import cuda
from cuhost import graph


@cuda.jit
def axpy(a, x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i]


@cuda.jit
def cscale(c, x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * c.real


x = cuda.to_device(np.ones(8, np.float32))
buffers = [cuda.device_array(8, np.float32)]
s = cuda.stream()
with graph.capture(s) as unnamed:
    axpy[1, 8, s](np.float32(2), x, buffers[0])
