# Local and shared arrays of records (cuda.local.array / cuda.shared.array
# with a structured dtype, given as a NumPy dtype or a from_dtype type):
# elements are references, fields read and write, whole records copy between
# global, shared and local arrays. Checked against NumPy on random data.
# stdout: record local shared ok
import numpy as np
from numba import cuda
from numba.cuda.np import numpy_support

rng = np.random.default_rng(21)
pt = np.dtype([("x", np.float32), ("y", np.float32), ("tag", np.int16), ("w", np.float64, 2)], align=True)
pt_t = numpy_support.from_dtype(pt)


@cuda.jit
def reverse_block(src, dst):
    tile = cuda.shared.array(32, dtype=pt)
    tmp = cuda.local.array(2, dtype=pt_t)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = src[i]
    cuda.syncthreads()
    tmp[0] = tile[31 - t]
    tmp[1].x = tmp[0].y
    tmp[1].y = tmp[0].x
    tmp[1].tag = tmp[0].tag + 1
    tmp[1].w[0] = tmp[0].w[1]
    tmp[1].w[1] = tmp[0].w[0] * 2
    dst[i] = tmp[1]


n = 64
src = np.zeros(n, pt)
src["x"] = rng.standard_normal(n)
src["y"] = rng.standard_normal(n)
src["tag"] = rng.integers(-100, 100, n)
src["w"] = rng.standard_normal((n, 2))
dst = np.zeros(n, pt)
reverse_block[2, 32](src, dst)
rev = np.concatenate([src[:32][::-1], src[32:][::-1]])
e = np.zeros(n, pt)
e["x"], e["y"], e["tag"] = rev["y"], rev["x"], rev["tag"] + 1
e["w"][:, 0], e["w"][:, 1] = rev["w"][:, 1], rev["w"][:, 0] * 2
assert (dst == e).all()
print("record local shared ok")
