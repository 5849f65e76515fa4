# range() with a step of zero known only at run time ends the kernel with
# Python's ValueError text instead of looping forever; other steps (positive,
# negative, from arguments) count as Python's range does.
# stdout: range zero step ok
import numpy as np
from numba import cuda


@cuda.jit
def count(out, a, b, s):
    t = 0
    for i in range(a, b, s):
        t += i
    out[0] = t


out = np.zeros(1, np.int64)
for a, b, s in [(0, 10, 3), (10, -7, -4), (5, 5, 1), (-3, 20, 7), (2, 0, 1)]:
    count[1, 1](out, a, b, s)
    assert out[0] == sum(range(a, b, s)), (a, b, s, out[0])
try:
    count[1, 1](out, 1, 0, 0)
except Exception as e:
    assert "ValueError: range() arg 3 must not be zero" in str(e), str(e)
else:
    raise AssertionError("a zero step did not raise")
print("range zero step ok")
