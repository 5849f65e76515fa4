# CUDA vector types in kernels: construction from scalars (converted to the
# base type) and from smaller vectors of the same base, .x/.y/.z/.w, aliases
# (cuda.float4 is cuda.float32x4), vectors as locals, in tuples and passed to
# device functions; wrong element counts and unknown components are typing
# errors. Results checked against NumPy on random data.
# stdout: vector types ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(3)
assert cuda.float4 is cuda.float32x4 and cuda.short2 is cuda.int16x2 and cuda.long3 is cuda.int64x3


@cuda.jit(device=True)
def dot4(a, b):
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w


@cuda.jit
def kernel(x, out, iout):
    i = cuda.grid(1)
    if i < x.shape[0]:
        p = cuda.float32x2(x[i, 0], x[i, 1])
        q = cuda.float4(p, x[i, 2], x[i, 3])
        r = cuda.float32x4(cuda.float32x3(x[i, 3], p), x[i, 0])
        out[i, 0] = dot4(q, r)
        s = q
        for v in (q, r, s):
            out[i, 1] += v.w
        t = cuda.int16x2(i, 70000)  # converted to int16: wraps like numba's cast
        iout[i, 0] = t.x
        iout[i, 1] = t.y


n = 50
x = rng.standard_normal((n, 4)).astype(np.float32)
out = np.zeros((n, 2), np.float32)
iout = np.zeros((n, 2), np.int64)
kernel[2, 32](x, out, iout)
q = x
r = np.stack([x[:, 3], x[:, 0], x[:, 1], x[:, 0]], axis=1)
np.testing.assert_allclose(out[:, 0], (q * r).sum(axis=1), rtol=1e-5)
np.testing.assert_allclose(out[:, 1], 2 * q[:, 3] + r[:, 3], rtol=1e-6)
assert (iout[:, 0] == np.arange(n)).all() and (iout[:, 1] == np.int16(70000 - 65536)).all()

for src, needle in (("v = cuda.float32x3(1.0, 2.0)", "float32x3 expects 3 elements, got 2"),
                    ("v = cuda.float32x2(1.0, 2.0)\n    a[0] = v.z", "Unknown attribute 'z' of type float32x2")):
    ns = {"cuda": cuda}
    exec("def bad(a):\n    " + src + "\n", ns)
    try:
        cuda.jit(ns["bad"])[1, 1](np.zeros(1))
    except cuda.TypingError as e:
        assert needle in str(e), e
    else:
        raise AssertionError("accepted: " + src)
print("vector types ok")
