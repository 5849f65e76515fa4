# `x in tup` / `x not in tup` over tuples of mixed numeric types, and
# int.bit_count() (the ones of |x|, like Python's) on every integer width.
import numpy as np
from numba import cuda

rng = np.random.default_rng(9)
small = (3, 7.5, np.int32(-2), True)


@cuda.jit
def membership(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[0, i] = v in small
        out[1, i] = v not in (1, 2, 3)
        out[2, i] = (v * 2) in (14, 6, -4)


x = rng.integers(-3, 9, 64).astype(np.float64)
x[::5] = 7.5
out = np.zeros((3, 64), np.int64)
membership[2, 32](x, out)
assert np.array_equal(out[0], [v in small for v in x])
assert np.array_equal(out[1], [v not in (1, 2, 3) for v in x])
assert np.array_equal(out[2], [(v * 2) in (14, 6, -4) for v in x])


@cuda.jit
def bits(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i].bit_count()


for dt in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
    info = np.iinfo(dt)
    a = rng.integers(info.min, info.max, 50, dtype=dt, endpoint=True)
    a[0] = info.min
    out = np.zeros(50, np.int64)
    bits[1, 64](a, out)
    assert np.array_equal(out, [bin(abs(int(v))).count("1") for v in a]), dt
print("ok")
