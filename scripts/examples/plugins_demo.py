# Two vendor plugins used by name, without declare_device: philox (random
# numbers, shipped as .cu) and fastmath (special functions, shipped as
# LTO-IR with a host implementation for the CPU backend).
# stdout: plugins ok
import math

import numpy as np
from numba import cuda
from cuhost.plugins import fastmath, philox


@cuda.jit
def noisy_sigmoid(out, key):
    i = cuda.grid(1)
    if i < out.size:
        z = philox.normal(key, i)
        out[i] = fastmath.sigmoid(z)


n = 100_000
out = np.zeros(n, np.float32)
noisy_sigmoid[(n + 255) // 256, 256](out, np.uint64(1234))
assert 0.0 < out.min() and out.max() < 1.0
assert abs(out.mean() - 0.5) < 0.01, out.mean()  # sigmoid of a symmetric distribution
print("philox.normal -> fastmath.sigmoid: mean %.4f, std %.4f" % (out.mean(), out.std()))
help_text = philox.uniform.__doc__
assert "float32(uint64, uint64)" in help_text
print("plugins ok")
