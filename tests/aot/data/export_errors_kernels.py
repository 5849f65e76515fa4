# The script tests/aot/test_export_errors.py exports: three kernels (one with a
# complex parameter, which has no C++ form; one with parameters named like
# C++ keywords) and a graph whose output array is
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


@cuda.jit
def shift(default, new):
    # Parameters named like C++ keywords: the header spells them default_ and new_.
    i = cuda.grid(1)
    if i < new.size:
        new[i] += default


x = cuda.to_device(np.ones(8, np.float32))
buffers = [cuda.device_array(8, np.float32)]
s = cuda.stream()
with graph.capture(s) as unnamed:
    axpy[1, 8, s](np.float32(2), x, buffers[0])
