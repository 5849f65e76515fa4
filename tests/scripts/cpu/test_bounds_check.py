# backends: cpu
# The CPU backend checks bounds by default: an out-of-range write raises
# IndexError naming the kernel, the array, the index and the thread/block;
# with bounds checks off (--no-bounds-check) the same script is not checked.
import numpy as np
from numba import cuda


@cuda.jit
def off_by_one(out):
    i = cuda.grid(1)
    if i <= out.size:  # bug: should be <
        out[i] = i


out = np.zeros(100, np.int32)
try:
    off_by_one[4, 32](out)
except IndexError as e:
    msg = str(e)
    assert "index 100 is out of bounds for axis 0 with size 100" in msg, msg
    assert "'out'" in msg and "'off_by_one'" in msg, msg
    assert "thread (4,0,0)" in msg and "block (3,0,0)" in msg, msg
else:
    raise AssertionError("no IndexError")

# A negative index too far back is named as written, as NumPy names it
# (np.zeros(5)[-6]: "index -6 is out of bounds for axis 0 with size 5"),
# not as the wrapped -1.
@cuda.jit
def pick(a, i, j):
    a[0] = a[i, j]


for i, j, want in [(-6, 0, "index -6 is out of bounds for axis 0 with size 5"),
                   (1, -4, "index -4 is out of bounds for axis 1 with size 3"),
                   (5, 1, "index 5 is out of bounds for axis 0 with size 5")]:
    host = np.zeros((5, 3))
    try:
        host[i, j]
    except IndexError as e:
        assert str(e) == want, (str(e), want)  # NumPy's own words
    try:
        pick[1, 1](host, i, j)
    except IndexError as e:
        assert str(e).startswith(want + " (array 'a' in kernel 'pick'"), str(e)
    else:
        raise AssertionError("no IndexError for %d, %d" % (i, j))

# The host keeps working afterwards.
ok = np.zeros(100, np.int32)


@cuda.jit
def fine(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = 2 * i


fine[4, 32](ok)
np.testing.assert_array_equal(ok, 2 * np.arange(100))
print("bounds ok")
