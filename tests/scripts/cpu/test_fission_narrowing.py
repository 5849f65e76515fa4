# Loop fission's region loops narrowed to the threads a block-uniform guard
# keeps (codegen/cpu_guard_narrowing.cpp), checked against NumPy: tree
# reductions of every block size (powers of two and not, 1-d and 2-d blocks),
# guards written `t < s`, `s > t` and `t >= s` (else branch), guards whose
# bound is 0, regions whose unguarded part writes memory (not narrowed), a
# shared-memory scan, and a guard on a grid index. Without bounds checks, whose
# failure paths would make every region keep per-thread bookkeeping.
# cuhost-args: --no-bounds-check
# stdout: narrowing ok
import warnings

import numpy as np
from numba import cuda, float64, int32

warnings.filterwarnings("ignore", message="Grid size")  # one-block kernels on purpose

rng = np.random.default_rng(99)


def tree_reference(x, tpb):
    out = []
    for b in range(0, len(x), tpb):
        buf = np.zeros(tpb)
        chunk = x[b:b + tpb]
        buf[:len(chunk)] = chunk
        s = 1
        while s < tpb:
            s *= 2
        s //= 2
        n = tpb
        while s > 0:
            for t in range(s):
                if t + s < n:
                    buf[t] += buf[t + s]
            s //= 2
        out.append(buf[0])
    return np.array(out)


def make_tree(tpb):
    top = 1
    while top < tpb:
        top *= 2
    top //= 2

    @cuda.jit
    def tree(x, out):
        buf = cuda.shared.array(tpb, float64)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        buf[t] = x[i] if i < x.size else 0.0
        cuda.syncthreads()
        s = top
        while s > 0:
            if t < s and t + s < tpb:
                buf[t] += buf[t + s]
            cuda.syncthreads()
            s //= 2
        if t == 0:
            out[cuda.blockIdx.x] = buf[0]

    return tree


if cuda.backend() == "cpu":
    # The tree's regions are narrowed on this backend (its CPU module shows it).
    k = make_tree(256)
    k[2, 256](np.ones(512), np.zeros(2))
    ir = "\n".join(k._host_llvm(sig) for sig in k._compiled_signatures())
    assert "narrow.more" in ir

for tpb in (1, 2, 3, 32, 100, 128, 255, 256, 512):
    n = tpb * 7 - 3 if tpb > 3 else tpb * 5
    x = rng.standard_normal(n)
    blocks = (n + tpb - 1) // tpb
    out = np.zeros(blocks)
    make_tree(tpb)[blocks, tpb](x, out)
    np.testing.assert_allclose(out, tree_reference(x, tpb), rtol=1e-12, atol=1e-12)


@cuda.jit
def guards(x, lo, hi, out):
    # s > t, and t >= s with work in the else branch, per region
    buf = cuda.shared.array(64, float64)
    t = cuda.threadIdx.x
    buf[t] = x[t]
    cuda.syncthreads()
    if hi > t:
        buf[t] = buf[t] * 2.0
    cuda.syncthreads()
    if t >= lo:
        pass
    else:
        buf[t] = buf[t] + 1.0
    cuda.syncthreads()
    out[t] = buf[t]


x = rng.standard_normal(64)
for lo, hi in ((0, 0), (10, 20), (64, 64), (100, -5), (-3, 70), (1, 63)):
    out = np.zeros(64)
    guards[1, 64](x, lo, hi, out)
    ref = x.copy()
    ref[:max(0, min(64, hi))] *= 2.0
    ref[:max(0, min(64, lo))] += 1.0
    np.testing.assert_array_equal(out, ref)


@cuda.jit
def counted(x, s, out, seen):
    # The unguarded part of the region writes memory: every thread counts.
    buf = cuda.shared.array(32, int32)
    t = cuda.threadIdx.x
    buf[t] = x[t]
    cuda.syncthreads()
    if t < s:
        buf[t] += 100
    seen[t] += 1
    cuda.syncthreads()
    out[t] = buf[t]


xi = rng.integers(0, 50, 32).astype(np.int32)
for s in (0, 5, 32, 40):
    out = np.zeros(32, np.int32)
    seen = np.zeros(32, np.int32)
    counted[1, 32](xi, s, out, seen)
    ref = xi.copy()
    ref[:min(s, 32)] += 100
    assert np.array_equal(out, ref) and np.array_equal(seen, np.ones(32, np.int32)), (s, out, seen)


@cuda.jit
def scan(x, out):
    # Hillis-Steele inclusive scan: guards t >= d, read then write in two regions.
    buf = cuda.shared.array(128, float64)
    tmp = cuda.shared.array(128, float64)
    t = cuda.threadIdx.x
    buf[t] = x[t]
    cuda.syncthreads()
    d = 1
    while d < 128:
        if t >= d:
            tmp[t] = buf[t - d]
        else:
            tmp[t] = 0.0
        cuda.syncthreads()
        buf[t] += tmp[t]
        cuda.syncthreads()
        d *= 2
    out[t] = buf[t]


x = rng.standard_normal(128)
out = np.zeros(128)
scan[1, 128](x, out)
np.testing.assert_allclose(out, np.cumsum(x), rtol=1e-12, atol=1e-12)


@cuda.jit
def grid_guard(x, n, out):
    # A guard on the global index in a region: narrowed per block.
    buf = cuda.shared.array(64, float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = 0.0
    cuda.syncthreads()
    if i < n:
        buf[t] = x[i] * 3.0
    cuda.syncthreads()
    out[i] = buf[t]


x = rng.standard_normal(64 * 5)
for n in (0, 1, 63, 64, 130, 320):
    out = np.full(64 * 5, -1.0)
    grid_guard[5, 64](x, n, out)
    ref = np.where(np.arange(64 * 5) < n, x * 3.0, 0.0)
    np.testing.assert_array_equal(out, ref)
print("narrowing ok")
