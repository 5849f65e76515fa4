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
