# The numba ABI's status channel for foreign calls made directly by a kernel:
# 0 is OK, -2 is None (success: the result slot is used), any other value
# makes the calling thread return at once (its later stores never happen).
# With debug=True a code >= 1 is reported on the host after the launch.
# stdout: status codes ok
import os

import numpy as np
from numba import cuda

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "ops.cu")
status = cuda.declare_device("ffi_status", "int32(int32, int32)", link=CU)


@cuda.jit
def k(out, after, codes):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = status(codes[i], 7 * i + 1)
        after[i] = 1


rng = np.random.default_rng(5)
codes = rng.choice(np.array([0, -2, 1, 3, -1, -7, 12], np.int32), 400)
out = np.full(400, -99, np.int32)
after = np.zeros(400, np.int32)
k[4, 128](out, after, codes)
ok = (codes == 0) | (codes == -2)
assert ok.any() and (~ok).any()
np.testing.assert_array_equal(out[ok], 7 * np.arange(400)[ok] + 1)
np.testing.assert_array_equal(out[~ok], -99)          # the thread returned before the store
np.testing.assert_array_equal(after, ok.astype(np.int32))


@cuda.jit(debug=True, opt=False)
def kd(out, codes):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = status(codes[i], i + 100)


# Only success codes: nothing is reported.
codes = np.array([0, -2, 0, -2], np.int32)
out = np.zeros(4, np.int32)
kd[1, 4](out, codes)
np.testing.assert_array_equal(out, np.arange(4) + 100)

# A positive code is reported on the host after the launch, naming the function and the code.
codes = np.array([0, 0, 4, 0], np.int32)
out = np.full(4, -99, np.int32)
try:
    kd[1, 4](out, codes)
except Exception as e:
    msg = str(e)
    assert "ffi_status" in msg and "code 4" in msg and "'kd'" in msg, msg
else:
    raise AssertionError("status 4 not reported in debug mode")
np.testing.assert_array_equal(out, [100, 101, -99, 103])
print("status codes ok")
