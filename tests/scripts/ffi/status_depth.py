# numba -> numba status propagation at depth 3, through a C-ABI function in
# the middle (which ignores the status and goes on), with barriers after the
# exit (threads that ended count as arrived), with debug=True reporting the
# foreign code, and in a device function compiled on its own.
# stdout: status depth ok
import os

import numpy as np
from numba import cuda

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "ops.cu")
status = cuda.declare_device("ffi_status", "int32(int32, int32)", link=CU)

rng = np.random.default_rng(77)
codes = rng.choice(np.array([0, -2, 1, 6, -1, -9], np.int32), 128)
ok = (codes == 0) | (codes == -2)
assert ok.any() and (~ok).any()
idx = np.arange(128)


@cuda.jit(device=True)
def d1(code, v):
    return status(code, v) + 1


@cuda.jit(device=True)
def d2(code, v):
    return d1(code, v) * 2


@cuda.jit(device=True)
def d3(code, v):
    w = d2(code, v)
    return w - 3


# C ABI in the middle: it ignores d2's status and goes on with d2's result
# slot, which stays zero when d2 ended early (its callee raised).
@cuda.jit(device=True, abi="c")
def c_mid(code, v):
    return d2(code, v) + 5


@cuda.jit(device=True)
def above_c(code, v):
    return c_mid(code, v) * 10


@cuda.jit
def k(out, mid, after, codes):
    i = cuda.grid(1)
    if i < out.size:
        mid[i] = above_c(codes[i], i)  # never ends the thread
        out[i] = d3(codes[i], i)
        after[i] = 1


out = np.full(128, -99, np.int64)
mid = np.full(128, -99, np.int64)
after = np.zeros(128, np.int32)
k[2, 64](out, mid, after, codes)
np.testing.assert_array_equal(mid, np.where(ok, ((idx + 1) * 2 + 5) * 10, 50))
np.testing.assert_array_equal(out, np.where(ok, (idx + 1) * 2 - 3, -99))
np.testing.assert_array_equal(after, ok.astype(np.int32))


# Barriers after the exit: ended threads leave their shared slot untouched.
@cuda.jit
def k_bar(out, codes):
    sh = cuda.shared.array(64, np.int64)
    t = cuda.threadIdx.x
    sh[t] = -5
    cuda.syncthreads()
    sh[t] = d3(codes[t], t)
    cuda.syncthreads()
    out[t] = sh[(t + 1) % 64]


out = np.full(64, -99, np.int64)
k_bar[1, 64](out, codes[:64])
nxt = (idx[:64] + 1) % 64
want_sh = np.where(ok[:64], (idx[:64] + 1) * 2 - 3, -5)
np.testing.assert_array_equal(out, np.where(ok[:64], want_sh[nxt], -99))


# debug=True: the foreign code raised at depth 3 is reported after the launch.
@cuda.jit(debug=True, opt=False)
def k_debug(out, codes):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = d3(codes[i], i)


out = np.zeros(4, np.int64)
k_debug[1, 4](out, np.array([0, -2, 0, 0], np.int32))
np.testing.assert_array_equal(out, (np.arange(4) + 1) * 2 - 3)
try:
    k_debug[1, 4](out, np.array([0, 0, 0, 8], np.int32))
except Exception as e:
    assert "ffi_status" in str(e) and "code 8" in str(e), str(e)
else:
    raise AssertionError("status 8 not reported in debug mode")

# A raising device function compiled on its own keeps the numba ABI.
ptx, resty = cuda.compile_ptx(d3, "int32(int32, int32)", device=True)
assert ".func" in ptx and "ffi_status" in ptx, ptx[:400]
print("status depth ok")
