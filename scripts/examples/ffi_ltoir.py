# backends: cuda
# Linking a device library shipped as LTO-IR by path (built from
# ffi/ltoir/vecmath.cu by NVRTC when cuhost is built). LTO-IR is GPU code:
# on the CPU backend this example does not apply.
# stdout: ffi ltoir ok
import os

import numpy as np
from numba import cuda
import cuhost

lib = os.path.join(cuhost.share_dir(), "examples", "vecmath.ltoir")
dot3 = cuda.declare_device("dot3", "float32(float32, float32, float32, float32, float32, float32)", link=lib, abi="c")
norm3 = cuda.declare_device("norm3", "float32(float32, float32, float32)", link=lib)


@cuda.jit
def geometry(out, a, b):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i, 0] = dot3(a[i, 0], a[i, 1], a[i, 2], b[i, 0], b[i, 1], b[i, 2])
        out[i, 1] = norm3(a[i, 0], a[i, 1], a[i, 2])


rng = np.random.default_rng(12)
a = rng.random((2048, 3), dtype=np.float32)
b = rng.random((2048, 3), dtype=np.float32)
out = np.zeros((2048, 2), np.float32)
geometry[16, 128](out, a, b)
np.testing.assert_allclose(out[:, 0], (a * b).sum(axis=1), rtol=1e-5)
np.testing.assert_allclose(out[:, 1], np.linalg.norm(a, axis=1), rtol=1e-5)
print("ffi ltoir ok")
