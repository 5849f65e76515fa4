# Functions passed as arguments to device functions: an intrinsic
# (cuda.atomic.*), another device function and a declared type, with literal
# integer/tuple arguments specializing the callee (shared array shapes) and
# a literal boolean argument in a condition (numba does not prune on an
# argument's value, so both branches must type).
import numpy as np
from numba import cuda, uint32, float64

rng = np.random.default_rng(11)


@cuda.jit(device=True)
def identity(x):
    return x


@cuda.jit(device=True)
def plus_one(x):
    return x + 1


@cuda.jit(device=True)
def shared_update(ary, idx, val, op, cast, shape, dtype, wrap):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    sm = cuda.shared.array(shape, dtype)
    sm[tx, ty] = ary[tx, ty]
    cuda.syncthreads()
    where = (idx[tx, ty] % shape[0], cast(ty) % shape[1])
    if wrap:
        where = (where[0] - shape[0], where[1] - shape[1])  # typed although never taken
    op(sm, where, val)
    cuda.syncthreads()
    ary[tx, ty] = sm[tx, ty]


@cuda.jit
def add_kernel(ary, idx):
    shared_update(ary, idx, 3, cuda.atomic.add, identity, (4, 8), uint32, False)


@cuda.jit
def max_kernel(ary, idx):
    shared_update(ary, idx, 2.5, cuda.atomic.max, plus_one, (4, 8), float64, False)


ary = rng.integers(0, 100, (4, 8)).astype(np.uint32)
idx = rng.integers(0, 64, (4, 8)).astype(np.int64)
gold = ary.copy()
for x in range(4):
    for y in range(8):
        gold[idx[x, y] % 4, y % 8] += 3
add_kernel[1, (4, 8)](ary, idx)
assert np.array_equal(ary, gold), (ary, gold)

fary = rng.standard_normal((4, 8)) * 4
gold = fary.copy()
for x in range(4):
    for y in range(8):
        i, j = idx[x, y] % 4, (y + 1) % 8
        gold[i, j] = max(gold[i, j], 2.5)
max_kernel[1, (4, 8)](fary, idx)
assert np.array_equal(fary, gold)


# numba-cuda's NaN rules for float atomics: max/min leave a NaN element (and
# ignore a NaN value); nanmax/nanmin replace a NaN element; all return the old value.
@cuda.jit
def nan_rules(x, old):
    old[0] = cuda.atomic.max(x, 0, 5.0)
    old[1] = cuda.atomic.nanmax(x, 1, 5.0)
    old[2] = cuda.atomic.min(x, 2, np.nan)
    old[3] = cuda.atomic.nanmin(x, 3, np.nan)
    old[4] = cuda.atomic.nanmin(x, 4, -5.0)


x = np.array([np.nan, np.nan, 1.0, 2.0, np.nan])
old = np.zeros(5)
nan_rules[1, 1](x, old)
np.testing.assert_equal(x, [np.nan, 5.0, 1.0, 2.0, -5.0])
np.testing.assert_equal(old, [np.nan, np.nan, 1.0, 2.0, np.nan])


@cuda.jit
def cas_kernel(res, old, vals):
    i = cuda.grid(1)
    if i < res.size:
        old[i] = cuda.atomic.compare_and_swap(res[i:], 7, vals[i])


res = rng.integers(5, 9, 64).astype(np.int32)
vals = rng.integers(100, 200, 64).astype(np.int32)
old = np.zeros(64, np.int32)
gold = np.where(res == 7, vals, res)
orig = res.copy()
cas_kernel[2, 32](res, old, vals)
assert np.array_equal(res, gold) and np.array_equal(old, orig)
print("ok")
