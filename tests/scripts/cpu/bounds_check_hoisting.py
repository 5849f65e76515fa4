# backends: cpu
# env: CUHOST_CPU_WORKERS=1
# Bounds checks hoisted out of the block loops and loop fission's region
# loops (codegen/cpu_check_hoisting.cpp) or removed under a guard: on random
# data and random offsets, an in-range launch gives NumPy's result and an
# out-of-range one raises the IndexError of the first failing access in the
# order the CPU backend runs them (one worker: blocks in order, threads x
# fastest, loop fission region by region), naming the array, the index, the
# extent, the thread and the block.
# stdout: hoisting ok
import warnings

import numpy as np
from numba import cuda, float32, float64

warnings.filterwarnings("ignore", message="Grid size")

rng = np.random.default_rng(34)


def expect_index_error(launch, kernel, array, index, size, tid, bid, axis=0):
    try:
        launch()
    except IndexError as e:
        msg = str(e)
        want = "index %d is out of bounds for axis %d with size %d" % (index, axis, size)
        assert want in msg, (msg, want)
        assert "'%s'" % array in msg and "'%s'" % kernel in msg, msg
        assert "thread (%d,0,0)" % tid in msg and "block (%d,0,0)" % bid in msg, (msg, tid, bid)
    else:
        raise AssertionError("no IndexError, expected index %d of %s" % (index, array))


def host_ir(kernel):
    return "\n".join(kernel._host_llvm(sig) for sig in kernel._compiled_signatures())


# A barrier-free kernel: the guard proves out's check, x's is hoisted
# (unsigned offsets: an index that may be negative wraps round, which
# leaves its check in place).
@cuda.jit
def shifted(x, off, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i + off] * 2.0


for trial in range(12):
    tpb = int(rng.choice([32, 64, 128, 256]))
    n = int(rng.integers(1, 3000))
    blocks = (n + tpb - 1) // tpb
    m = int(rng.integers(1, 3200))
    off = int(rng.integers(0, 300))
    x = rng.standard_normal(m)
    out = np.zeros(n)
    bad = [i for i in range(blocks * tpb) if i < n and i + off >= m]
    if not bad:
        shifted[blocks, tpb](x, np.uint32(off), out)
        np.testing.assert_array_equal(out, x[off:off + n] * 2.0)
    else:
        i = bad[0]
        expect_index_error(lambda: shifted[blocks, tpb](x, np.uint32(off), out), "shifted", "x", i + off, m, i % tpb, i // tpb)
assert ".unchecked" in host_ir(shifted), "x's check was not hoisted"


# A loop inside each thread: the row index is invariant in it, the column
# index affine in its counter.
@cuda.jit
def row_sums(a, off, width, out):
    i = cuda.grid(1)
    if i < out.size:
        acc = 0.0
        for k in range(width):
            acc += a[i, k + off]
        out[i] = acc


def first_row_failure(n, rows, cols, off, width):
    """(thread, axis, index, size) of the first failing access, or None."""
    for i in range(n):
        for k in range(width):
            if i >= rows:
                return i, 0, i, rows
            if k + off >= cols:
                return i, 1, k + off, cols
    return None


for trial in range(10):
    rows = int(rng.integers(1, 200))
    cols = int(rng.integers(1, 40))
    a = rng.standard_normal((rows, cols))
    off = int(rng.integers(0, 6))
    width = int(rng.integers(0, cols + 3))
    n = int(rng.integers(1, rows + 20))
    out = np.zeros(n)
    tpb = 32
    blocks = (n + tpb - 1) // tpb
    fail = first_row_failure(n, rows, cols, off, width)
    if fail is None:
        row_sums[blocks, tpb](a, np.uint32(off), width, out)
        np.testing.assert_allclose(out, a[:n, off:off + width].sum(axis=1), rtol=1e-12)
    else:
        i, axis, index, size = fail
        expect_index_error(lambda: row_sums[blocks, tpb](a, np.uint32(off), width, out), "row_sums", "a", index, size, i % tpb,
                           i // tpb, axis)
assert ".unchecked" in host_ir(row_sums), "the column check was not hoisted"

TPB = 128


# Loop fission: a tree reduction whose shared-memory accesses are offset by a
# block-uniform amount, so some launches run past the shared array.
@cuda.jit
def offset_tree(x, pad, partial):
    buf = cuda.shared.array(TPB + 8, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t + pad] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            buf[t + pad] += buf[t + s + pad]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = buf[pad]


for trial in range(8):
    n = int(rng.integers(1, 5000))
    blocks = (n + TPB - 1) // TPB
    x = rng.random(n, dtype=np.float32)
    partial = np.zeros(blocks, np.float32)
    pad = int(rng.integers(0, 8)) if trial % 2 == 0 else int(rng.integers(9, 40))
    if pad <= 8:
        offset_tree[blocks, TPB](x, np.uint32(pad), partial)
        padded = np.zeros(blocks * TPB, np.float64)
        padded[:n] = x
        np.testing.assert_allclose(partial, padded.reshape(blocks, TPB).sum(axis=1), rtol=1e-5)
    else:
        # Region 0 of block 0 fails first, at the first thread past the array.
        t = TPB + 8 - pad
        expect_index_error(lambda: offset_tree[blocks, TPB](x, np.uint32(pad), partial), "offset_tree", "buf", t + pad, TPB + 8,
                           t, 0)
ir = host_ir(offset_tree)
assert ".unchecked" in ir and "narrow.more" in ir, "the region loops were not narrowed and hoisted"


# A check that fails in a later region only, for a random thread of a
# random block: the first failing thread is that one.
@cuda.jit
def late_failure(x, idx, out):
    buf = cuda.shared.array(64, float64)
    t = cuda.threadIdx.x
    buf[t] = x[cuda.grid(1)]
    cuda.syncthreads()
    out[cuda.grid(1)] = buf[idx[cuda.grid(1)]]


for trial in range(6):
    blocks = int(rng.integers(1, 9))
    x = rng.standard_normal(blocks * 64)
    idx = rng.integers(0, 64, blocks * 64)
    out = np.zeros(blocks * 64)
    if trial == 0:
        late_failure[blocks, 64](x, idx, out)
        ref = x.reshape(blocks, 64)[np.arange(blocks)[:, None], idx.reshape(blocks, 64)].ravel()
        np.testing.assert_array_equal(out, ref)
        continue
    bad = int(rng.integers(0, blocks * 64))
    idx[bad] = 64 + int(rng.integers(0, 100))
    expect_index_error(lambda: late_failure[blocks, 64](x, idx, out), "late_failure", "buf", idx[bad], 64, bad % 64,
                       bad // 64)

print("hoisting ok")
