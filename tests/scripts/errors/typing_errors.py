# Bad kernels raise the right exception class with the message and the
# line:column of the offending expression (typing and capture errors).
# stdout: typing errors: 9 checks passed
import numpy as np
from numba import cuda

checks = 0


def expect(kind, message, line, col, launch):
    global checks
    try:
        launch()
    except Exception as e:  # noqa: BLE001 - the class is checked by name
        text = str(e)
        assert type(e).__name__ == kind, (type(e).__name__, text)
        assert message in text, text
        assert ":%d:%d\n" % (line, col) in text, text
        checks += 1
        return
    raise AssertionError("no error for: " + message)


out = np.zeros(4, dtype=np.float32)


@cuda.jit
def add_str(a):
    a[0] = a[0] + "s"


@cuda.jit
def bad_grid(a, n):
    i = cuda.grid(n)
    a[i] = 0


@cuda.jit
def returns(a):
    return 1


@cuda.jit
def uses_try(a):
    try:
        a[0] = 1
    except Exception:
        pass


@cuda.jit
def unknown_attr(a):
    a[0] = cuda.foo


@cuda.jit(device=True)
def helper(x):
    return x + "s"


@cuda.jit
def calls_helper(a):
    a[0] = helper(a[0])


@cuda.jit
def unify(a):
    if a[0] > 0:
        x = 1
    else:
        x = a
    a[1] = x


@cuda.jit
def partial(a):
    a[0] = a


@cuda.jit
def undefined(a):
    a[0] = not_defined_anywhere


expect("TypingError", "cannot add float32 and str", 29, 12, lambda: add_str[1, 1](out))
expect("TypingError", "cuda.grid() needs a literal 1, 2 or 3", 34, 19, lambda: bad_grid[1, 1](out, 1))
expect("TypingError", "kernels must not return a value", 40, 5, lambda: returns[1, 1](out))
expect("UnsupportedError", "try statements are not supported in kernels", 45, 5, lambda: uses_try[1, 1](out))
expect("TypingError", "module 'cuda' has no attribute 'foo'", 53, 12, lambda: unknown_attr[1, 1](out))
expect("TypingError", "while typing call to device function 'helper'", 58, 12, lambda: calls_helper[1, 1](out))
expect("TypingError", "cannot unify int64 and array(float32, 1d, C) for variable 'x' (assigned at lines 69 and 71)",
       68, 5, lambda: unify[1, 1](out))
expect("TypingError", "cannot assign a 2-d array to a 1-d array slice", 77, 5,
       lambda: partial[1, 1](np.zeros((2, 2), dtype=np.float32)))
expect("NameError", "name 'not_defined_anywhere' is not defined", 82, 12, lambda: undefined[1, 1](out))
print("typing errors: %d checks passed" % checks)
