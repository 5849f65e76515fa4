# A tuple index into a multi-dimensional array may hold floats in
# cuda.atomic.* calls, as numba-cuda types them (the index tuple is kept as
# given and each element cast to intp, truncating, when the address is
# computed): numba-cuda's own atomics tests pass one where a uint64 meets an
# int64 (float64). Plain indexing still takes integers only.
# stdout: atomic real tuple index ok
import numpy as np
from numba import cuda, uint32, uint64


@cuda.jit(device=True)
def cast64(n):
    return uint64(n)


@cuda.jit
def add_at(ary, inc):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    where = (tx, cast64(ty) % ary.shape[1])  # (int64, float64), as numba types uint64 % int64
    cuda.atomic.add(ary, where, inc[tx, ty])
    cuda.atomic.max(ary, (tx, ty + 0.75), uint32(0))  # truncated to ty: no change


rng = np.random.default_rng(7)
ary = rng.integers(0, 1000, (4, 8)).astype(np.uint32)
inc = rng.integers(1, 50, (4, 8)).astype(np.uint32)
want = ary + inc
add_at[1, (4, 8)](ary, inc)
np.testing.assert_array_equal(ary, want)


@cuda.jit
def plain(ary):
    ary[0, 1.5] = 1


try:
    plain[1, 1](np.zeros((2, 2), np.uint32))
except Exception as e:  # noqa: BLE001 - the class is checked by name
    assert type(e).__name__ == "TypingError", e
    assert "array index must be integers, not Tuple(int64, float64)" in str(e), str(e)
else:
    raise AssertionError("a float index was accepted outside atomics")
print("atomic real tuple index ok")
