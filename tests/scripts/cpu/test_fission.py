# backends: cpu
# stdout: fission ok
# Loop fission at barriers (engine/codegen/cpu_fission.cpp): every barrier
# kernel here is compiled twice, once split into loops over the block's
# threads (CUHOST_CPU_FISSION=1) and once on fibers (CUHOST_CPU_FISSION=0);
# both results must be bit-identical and match a NumPy reference on random
# data, and the IR must show which path each one took.
import os

import numpy as np
from numba import cuda, float32, float64, int32

rng = np.random.default_rng(7)
TPB = 128
TILE = 16


def compiled_twice(pyfunc, griddim, blockdim, arrays, expect_fission=True):
    """Runs pyfunc on copies of arrays with fission on and off; returns both outputs."""
    results = []
    for flag in ("1", "0"):
        os.environ["CUHOST_CPU_FISSION"] = flag
        k = cuda.jit(pyfunc)
        outs = [a.copy() for a in arrays]
        k[griddim, blockdim](*outs)
        ir = "\n".join(k._host_llvm(sig) for sig in k._compiled_signatures())  # the CPU module (inspect_llvm is the GPU's)
        split = ".cpu.block" in ir
        assert split == (flag == "1" and expect_fission), (pyfunc.__name__, flag, split)
        results.append(outs)
    os.environ.pop("CUHOST_CPU_FISSION")
    for a, b in zip(*results):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), pyfunc.__name__
    return results[0]


def block_sum(x, partial):
    buf = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + t
    buf[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = buf[0]


x = rng.random(100_000).astype(np.float32)
blocks = (x.size + TPB - 1) // TPB
partial = np.zeros(blocks, np.float32)
_, partial = compiled_twice(block_sum, blocks, TPB, [x, partial])
ref = np.array([x[i * TPB:(i + 1) * TPB].astype(np.float64).sum() for i in range(blocks)])
np.testing.assert_allclose(partial, ref, rtol=1e-5)


def block_scan(x, out):
    tmp = cuda.shared.array(TPB, int32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * TPB + t
    tmp[t] = x[i]
    cuda.syncthreads()
    offset = 1
    while offset < TPB:
        v = 0
        if t >= offset:
            v = tmp[t - offset]
        cuda.syncthreads()
        tmp[t] += v
        cuda.syncthreads()
        offset *= 2
    out[i] = tmp[t]


xi = rng.integers(-100, 100, TPB * 16).astype(np.int32)
_, scan = compiled_twice(block_scan, 16, TPB, [xi, np.zeros_like(xi)])
np.testing.assert_array_equal(scan, np.cumsum(xi.reshape(16, TPB), axis=1).reshape(-1))


def tiled_matmul(a, b, c):
    sa = cuda.shared.array((TILE, TILE), float64)
    sb = cuda.shared.array((TILE, TILE), float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    col, row = cuda.grid(2)
    acc = 0.0
    for k0 in range(0, a.shape[1], TILE):
        sa[ty, tx] = a[row, k0 + tx] if row < a.shape[0] and k0 + tx < a.shape[1] else 0.0
        sb[ty, tx] = b[k0 + ty, col] if col < b.shape[1] and k0 + ty < b.shape[0] else 0.0
        cuda.syncthreads()
        for k in range(TILE):
            acc += sa[ty, k] * sb[k, tx]
        cuda.syncthreads()
    if row < c.shape[0] and col < c.shape[1]:
        c[row, col] = acc


A = rng.random((70, 45))
B = rng.random((45, 53))
C = np.zeros((70, 53))
grid = ((53 + TILE - 1) // TILE, (70 + TILE - 1) // TILE)
_, _, C = compiled_twice(tiled_matmul, grid, (TILE, TILE), [A, B, C])
np.testing.assert_allclose(C, A @ B, rtol=1e-12)


def histogram(x, bins):
    h = cuda.shared.array(16, int32)
    t = cuda.threadIdx.x
    if t < 16:
        h[t] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(h, x[i] % 16, 1)
    cuda.syncthreads()
    if t < 16:
        cuda.atomic.add(bins, t, h[t])


xh = rng.integers(0, 1000, 5000).astype(np.int32)
_, hist = compiled_twice(histogram, (xh.size + TPB - 1) // TPB, TPB, [xh, np.zeros(16, np.int32)])
np.testing.assert_array_equal(hist, np.bincount(xh % 16, minlength=16))


def votes(x, out):
    i = cuda.grid(1)
    c = cuda.syncthreads_count(x[i] > 0.5)
    a = cuda.syncthreads_and(x[i] > 0.02)
    o = cuda.syncthreads_or(x[i] > 0.99)
    out[i, 0] = c
    out[i, 1] = a
    out[i, 2] = o


xv = rng.random(TPB * 8).astype(np.float32)
_, ov = compiled_twice(votes, 8, TPB, [xv, np.zeros((TPB * 8, 3), np.int32)])
per_block = xv.reshape(8, TPB)
np.testing.assert_array_equal(ov[:, 0], np.repeat((per_block > 0.5).sum(axis=1), TPB))
np.testing.assert_array_equal(ov[:, 1], np.repeat((per_block > 0.02).all(axis=1).astype(np.int32), TPB))
np.testing.assert_array_equal(ov[:, 2], np.repeat((per_block > 0.99).any(axis=1).astype(np.int32), TPB))


def early_exit(x, out):
    # Threads past the end return before the barriers; they count as arrived.
    buf = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = 0
    if i >= x.size:
        return
    buf[t] = x[i] * 2
    n = cuda.syncthreads_count(1)
    src = t + 1
    if src >= n:
        src = 0
    v = buf[src]
    cuda.syncthreads()
    out[i] = v + n


xe = rng.random(300).astype(np.float32)
_, oe = compiled_twice(early_exit, 3, TPB, [xe, np.zeros(300, np.float32)])
ref = np.zeros(300, np.float32)
for blk in range(3):
    lo, hi = blk * TPB, min(300, (blk + 1) * TPB)
    n = hi - lo
    seg = xe[lo:hi] * np.float32(2)
    ref[lo:hi] = np.roll(seg, -1) + np.float32(n)
np.testing.assert_array_equal(oe, ref)


def uniform_loop(x, out, rounds):
    # A barrier inside a for-range loop with a block-uniform bound, and one
    # in an if whose condition is uniform.
    buf = cuda.shared.array(TPB, int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i]
    cuda.syncthreads()
    for r in range(rounds):
        v = buf[(t + 1) % TPB] + r
        cuda.syncthreads()
        buf[t] = v
        cuda.syncthreads()
    if rounds > 2:
        cuda.syncthreads()
        buf[t] *= 2
    out[i] = buf[t]


xu = rng.integers(-50, 50, TPB * 4).astype(np.int32)
_, ou, _ = compiled_twice(uniform_loop, 4, TPB, [xu, np.zeros_like(xu), np.int64(5)])
ref = np.zeros_like(xu)
for blk in range(4):
    seg = xu[blk * TPB:(blk + 1) * TPB].copy()
    for r in range(5):
        seg = np.roll(seg, -1) + r
    ref[blk * TPB:(blk + 1) * TPB] = seg * 2
np.testing.assert_array_equal(ou, ref)


def block3d(x, out):
    # A 3-d block, a barrier-free while loop inside a region, syncthreads_or.
    sm = cuda.shared.array(64, int32)
    t = cuda.threadIdx.x + 4 * (cuda.threadIdx.y + 4 * cuda.threadIdx.z)
    sm[t] = x[cuda.blockIdx.x * 64 + t]
    cuda.syncthreads()
    acc = 0
    j = 0
    while j < 64:
        acc += sm[(t + j) % 64] * (j + 1)
        j += 3
    cuda.syncthreads()
    sm[63 - t] = acc
    big = cuda.syncthreads_or(acc > 1000)
    out[cuda.blockIdx.x * 64 + t] = sm[t] + big


x3 = rng.integers(-20, 20, 64 * 5).astype(np.int32)
_, o3 = compiled_twice(block3d, 5, (4, 4, 4), [x3, np.zeros_like(x3)])
ref = np.zeros_like(x3)
for blk in range(5):
    seg = x3[blk * 64:(blk + 1) * 64]
    acc = np.array([sum(int(seg[(t + j) % 64]) * (j + 1) for j in range(0, 64, 3)) for t in range(64)])
    ref[blk * 64:(blk + 1) * 64] = acc[::-1] + int((acc > 1000).any())
np.testing.assert_array_equal(o3, ref)


def breaks_out(x, out):
    # A break leaving a loop that holds a barrier: not split, fibers run it.
    buf = cuda.shared.array(TPB, int32)
    t = cuda.threadIdx.x
    buf[t] = x[t]
    for r in range(4):
        cuda.syncthreads()
        if r == 2:
            break
        buf[t] += 1
    out[t] = buf[t]


xb = rng.integers(0, 9, TPB).astype(np.int32)
_, ob = compiled_twice(breaks_out, 1, TPB, [xb, np.zeros_like(xb)], expect_fission=False)
np.testing.assert_array_equal(ob, xb + 2)


@cuda.jit
def divergent(out):
    t = cuda.threadIdx.x
    if t % 2 == 0:
        cuda.syncthreads()
        out[t] = 1
    else:
        cuda.syncthreads()
        out[t] = 2


try:
    divergent[1, 64](np.zeros(64, np.int32))
    raise AssertionError("divergent barriers were not reported")
except cuda.KernelError as e:
    msg = str(e)
    assert "barrier inside divergent control flow in kernel 'divergent' (line 254)" in msg, msg
print("fission ok")
