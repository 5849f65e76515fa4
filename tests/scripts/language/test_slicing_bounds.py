# backends: cpu
# Bounds checks (on by default on the CPU backend) apply to the integer
# indices that make a view and to element accesses through a view.
# stdout: slicing bounds ok
import builtins

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


@cuda.jit
def chained(a):
    a[1][a.shape[1]] = 1.0


expect_index_error(chained, np.zeros((3, 4)), "index 4 is out of bounds for axis 0 with size 4", "a")


# Sizes that do not broadcast, a zero run-time step and overlapping memory
# are reported (numba's ValueError text inside the kernel error).
@cuda.jit
def wrong_size(a, b):
    a[1:4] = b


@cuda.jit
def wrong_tuple(a):
    a[1:4] = 1, 2


@cuda.jit
def zero_step(a, st):
    b = a[::st]
    a[0] = len(b)


@cuda.jit
def overlapping(a):
    a[1:] = a[:-1]


def expect_kernel_error(kernel, args, text):
    try:
        kernel[1, 1](*args)
    except Exception as e:  # noqa: BLE001 - the class is checked below
        # A KernelError that is also the built-in class the message names.
        assert isinstance(e, cuda.KernelError), (type(e).__name__, str(e))
        assert isinstance(e, getattr(builtins, text.split(":")[0])), (type(e).__name__, str(e))
        assert text in str(e), str(e)
    else:
        raise AssertionError("no error for " + text)


expect_kernel_error(wrong_size, (np.zeros(6), np.ones(2)), "ValueError: cannot assign slice from input of different size")
expect_kernel_error(wrong_tuple, (np.zeros(6),), "ValueError: cannot assign slice from input of different size")
expect_kernel_error(zero_step, (np.zeros(6), 0), "ValueError: slice step cannot be zero")
a = np.arange(6.0)
expect_kernel_error(overlapping, (a,), "ValueError: slice assignment from overlapping memory is not supported")
np.testing.assert_array_equal(a, np.arange(6.0))  # nothing was written

print("slicing bounds ok")
