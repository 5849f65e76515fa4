# Whole-record copies of NumPy's packed records (align=False, the default):
# element i of an array of 9-byte records sits at byte 9 * i, so a copy may
# not use accesses wider than a byte there (a GPU faults on a misaligned
# 8-byte load); aligned records keep their wide accesses. Results against
# NumPy on random data for odd and even elements, r[()] = a[i] (a 0-d
# record array) and a[j] = a[i], and the PTX of the packed copy.
# stdout: packed record copies ok
import re

import numpy as np
from numba import cuda

rng = np.random.default_rng(43)
packed = np.dtype([("a", np.int8), ("b", np.float64)])
aligned = np.dtype([("a", np.int8), ("b", np.float64)], align=True)


@cuda.jit
def record_return(r, ary, i):
    r[()] = ary[i]


@cuda.jit
def shift_records(dst, src):
    i = cuda.grid(1)
    if i + 1 < src.size:
        dst[i + 1] = src[i]


for dtype in (packed, aligned):
    src = np.zeros(33, dtype=dtype)
    src["a"] = rng.integers(-100, 100, 33)
    src["b"] = rng.standard_normal(33)
    for i in (1, 2, 7, 32):
        ret = np.ndarray((), dtype=dtype)
        record_return[1, 1](ret, src, i)
        assert tuple(ret[()]) == tuple(src[i]), (dtype, i, ret[()], src[i])
    dst = np.zeros_like(src)
    shift_records[1, 64](dst, src)
    np.testing.assert_array_equal(dst[1:], src[:-1])
    assert tuple(dst[0]) == (0, 0.0)

wide_access = re.compile(r"(?:ld|st)\.global(?:\.nc)?\.(?:[usbf]64|v\d)")
for sig in record_return.signatures:
    wide = wide_access.findall(record_return.inspect_asm(sig))
    if ";9;False)" in str(sig[0]):  # the packed 9-byte record: byte accesses only
        assert wide == [], (sig, wide)
    else:  # the aligned 16-byte record keeps 8-byte (or vector) accesses
        assert ";16;True)" in str(sig[0]) and wide, (sig, wide)
print("packed record copies ok")
