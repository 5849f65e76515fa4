# debug=True: a failed check inside a kernel is raised on the host after the
# launch with the same message on both backends (on a GPU the first failing
# thread fills the module's error record instead of trapping, so the context
# stays usable), and the kernel can be launched again afterwards.
# stdout: debug checks ok
import numpy as np
from numba import cuda


@cuda.jit(debug=True, opt=False)
def gather(out, xs, offset, bad_thread):
    i = cuda.grid(1)
    if i < out.size:
        j = i + offset
        if i == bad_thread:
            j = j + 1000
        out[i] = xs[j]


@cuda.jit(debug=True, opt=False)
def divide(out, xs, ys):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = xs[i] // ys[i]


rng = np.random.default_rng(11)
xs = rng.random(300).astype(np.float32)
out = np.zeros(256, np.float32)

try:
    gather[2, 128](out, xs, 3, 133)
except IndexError as e:
    assert str(e) == ("index 1136 is out of bounds for axis 0 with size 300 "
                      "(array 'xs' in kernel 'gather', thread (5,0,0), block (1,0,0))"), str(e)
else:
    raise AssertionError("no IndexError")

# The same kernel runs again, correctly, after the report.
out = np.zeros(256, np.float32)
gather[2, 128](out, xs, 3, -1)
np.testing.assert_array_equal(out, xs[3:259])

a = rng.integers(-1000, 1000, 64).astype(np.int64)
b = rng.integers(1, 50, 64).astype(np.int64)
q = np.zeros(64, np.int64)
divide[1, 64](q, a, b)
np.testing.assert_array_equal(q, a // b)
b[17] = 0
try:
    divide[1, 64](q, a, b)
except ZeroDivisionError as e:
    assert str(e).endswith("tid=[17, 0, 0] ctaid=[0, 0, 0]: integer division or modulo by zero"), str(e)
else:
    raise AssertionError("no error for a division by zero")
print("debug checks ok")
