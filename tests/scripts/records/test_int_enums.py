# IntEnum members in kernels are integers (numba's IntEnumMember converts to
# int wherever one is needed): class attributes fold to constants, arguments
# pass as int64, casts and arithmetic follow the integer rules. Datetime
# arrays copy to the device (as their int64 words) and view as int64 there.
# stdout: int enums ok
from enum import IntEnum

import numpy as np
from numba import cuda


class Code(IntEnum):
    ok = 200
    missing = 404
    broken = 500


@cuda.jit
def classify(x, code, out):
    i = cuda.grid(1)
    if i < x.size:
        if x[i] >= Code.broken:
            out[i] = x[i] - Code.missing + code
        else:
            out[i] = cuda.types.int16(Code.ok) * 2 + x[i] % Code.missing


rng = np.random.default_rng(11)
x = rng.integers(0, 1000, 200)
out = np.zeros(200, np.int64)
classify[4, 64](x, Code.missing, out)
expect = np.where(x >= 500, x - 404 + 404, 200 * 2 + x % 404)
assert (out == expect).all()

days = np.arange("2005-02", "2006-02", dtype="datetime64[D]")
d = cuda.to_device(days)
assert d.dtype == days.dtype
v = d.view(np.int64)
assert (v.copy_to_host() == days.view(np.int64)).all() and v.gpu_data == d.gpu_data
print("int enums ok")
