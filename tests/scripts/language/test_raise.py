# raise and assert in kernels: with debug=True the host raises the kernel's
# exception class (built-in or user-defined) with numba-cuda's message
# ("In function ..., line N, tid=[..] ctaid=[..]: arg"); without debug the
# raising thread ends and the others finish their work.
import numpy as np
from numba import cuda


class MyError(Exception):
    pass


def body(a, mode):
    i = cuda.grid(1)
    if i < a.size:
        if mode == 1 and i == 5:
            raise MyError("bad element")
        if mode == 2 and i == 7:
            raise ValueError
        if mode == 3:
            assert a[i] < 100, "too big"
        a[i] = a[i] * 2


debug_k = cuda.jit(debug=True, opt=False)(body)
plain_k = cuda.jit(body)

a = np.arange(16, dtype=np.int64)
debug_k[1, 16](a, 0)
assert np.array_equal(a, np.arange(16) * 2)

for mode, cls, text in ((1, MyError, "bad element"), (2, ValueError, None), (3, AssertionError, "too big")):
    a = np.arange(16, dtype=np.int64)
    if mode == 3:
        a[9] = 500
    try:
        debug_k[1, 16](a, mode)
    except cls as e:
        msg = str(e)
        assert "In function 'body'" in msg and "tid=[" in msg and "ctaid=[0, 0, 0]" in msg, msg
        if text:
            assert msg.endswith(": " + text), msg
    else:
        raise AssertionError("no %s raised" % cls.__name__)

    # Without debug: the raising thread ends silently, the others complete.
    a = np.arange(16, dtype=np.int64)
    if mode == 3:
        a[9] = 500
    expect = a * 2
    bad = {1: 5, 2: 7, 3: 9}[mode]
    expect[bad] = a[bad]
    plain_k[1, 16](a, mode)
    assert np.array_equal(a, expect), (mode, a)
print("ok")
