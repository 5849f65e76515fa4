# backends: cpu
# Bounds checks (on by default on the CPU backend) apply to the integer
# indices that make a view and to element accesses through a view.
# stdout: slicing bounds ok
import numpy as np
from numba import cuda


@cuda.jit
def past_row_end(a):
    row = a[1]
    row[len(row)] = 1.0


@cuda.jit
def bad_row(a):
    row = a[a.shape[0]]
    row[0] = 1.0


def expect_index_error(kernel, arg, text, name):
    try:
        kernel[1, 1](arg)
    except IndexError as e:
        assert text in str(e), str(e)
        assert "'%s'" % name in str(e), str(e)
    else:
        raise AssertionError("no IndexError for " + text)


expect_index_error(past_row_end, np.zeros((3, 4)), "index 4 is out of bounds for axis 0 with size 4", "row")
expect_index_error(bad_row, np.zeros((3, 4)), "index 3 is out of bounds for axis 0 with size 3", "a")

print("slicing bounds ok")
