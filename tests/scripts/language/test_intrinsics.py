# Thread indexing (threadIdx/blockIdx/blockDim/gridDim, grid/gridsize in 1-3
# dimensions, warpsize) and the bit and arithmetic intrinsics fma, cbrt,
# brev, clz, ffs, popc, selp; casts with numba type objects.
import numpy as np
from numba import cuda, float32, int32, uint32, int64

rng = np.random.default_rng(17)


@cuda.jit
def indices(out):
    x, y = cuda.grid(2)
    w, h = cuda.gridsize(2)
    if x < out.shape[0] and y < out.shape[1]:
        out[x, y, 0] = cuda.threadIdx.x + cuda.threadIdx.y * 100
        out[x, y, 1] = cuda.blockIdx.x + cuda.blockIdx.y * 100
        out[x, y, 2] = cuda.blockDim.x * 1000 + cuda.blockDim.y
        out[x, y, 3] = cuda.gridDim.x * 1000 + cuda.gridDim.y
        out[x, y, 4] = w * 1000 + h
        out[x, y, 5] = cuda.warpsize


out = np.zeros((24, 10, 6), np.int64)
indices[(3, 2), (8, 5)](out)
X, Y = np.meshgrid(np.arange(24), np.arange(10), indexing="ij")
np.testing.assert_array_equal(out[..., 0], X % 8 + (Y % 5) * 100)
np.testing.assert_array_equal(out[..., 1], X // 8 + (Y // 5) * 100)
assert (out[..., 2] == 8005).all() and (out[..., 3] == 3002).all()
assert (out[..., 4] == 24010).all() and (out[..., 5] == 32).all()

u = rng.integers(1, 2**32 - 1, 200, dtype=np.uint64).astype(np.uint32)
f = rng.standard_normal(200).astype(np.float32)


@cuda.jit
def bit_ops(u, f, iout, fout):
    i = cuda.grid(1)
    if i < u.size:
        iout[i, 0] = cuda.popc(u[i])
        iout[i, 1] = cuda.clz(u[i])
        iout[i, 2] = cuda.ffs(u[i])
        iout[i, 3] = cuda.brev(u[i])
        iout[i, 4] = cuda.selp(f[i] > 0, int32(1), int32(-1))
        fout[i, 0] = cuda.fma(f[i], float32(2.0), float32(1.0))
        fout[i, 1] = cuda.cbrt(f[i])
        fout[i, 2] = float32(int32(f[i] * 10))
        fout[i, 3] = uint32(u[i]) // int64(3)


iout = np.zeros((200, 5), np.int64)
fout = np.zeros((200, 4), np.float32)
bit_ops[7, 32](u, f, iout, fout)
ui = u.astype(np.uint64)
np.testing.assert_array_equal(iout[:, 0], [bin(int(v)).count("1") for v in ui])
np.testing.assert_array_equal(iout[:, 1], [32 - int(v).bit_length() for v in ui])
np.testing.assert_array_equal(iout[:, 2], [(int(v) & -int(v)).bit_length() for v in ui])
np.testing.assert_array_equal(iout[:, 3], [int("{:032b}".format(int(v))[::-1], 2) for v in ui])
np.testing.assert_array_equal(iout[:, 4], np.where(f > 0, 1, -1))
np.testing.assert_allclose(fout[:, 0], f * 2 + 1, rtol=1e-6)
np.testing.assert_allclose(fout[:, 1], np.cbrt(f), rtol=1e-6)
np.testing.assert_array_equal(fout[:, 2], np.trunc(f.astype(np.float64) * 10).astype(np.int32).astype(np.float32))
np.testing.assert_allclose(fout[:, 3], (ui // 3).astype(np.float32), rtol=1e-7)
print("intrinsics ok")
