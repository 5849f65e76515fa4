# Errors of @overload in numba's words: no matching implementation lists the
# candidates and why they failed (with the kernel's source location), and a
# typing function whose implementation has another signature is reported.
# stdout: overload errors ok
import numpy as np
from numba import cuda
from numba.cuda import types
from numba.cuda.core.errors import TypingError
from numba.cuda.extending import overload


def only_ints(x):
    pass


@overload(only_ints)
def ol_only_ints(x):
    if isinstance(x, types.Integer):
        return lambda x: x
    if isinstance(x, types.Complex):
        raise TypeError("complex numbers are refused: %s" % x)


@cuda.jit
def uses_float(out, x):
    out[0] = only_ints(x)


try:
    uses_float[1, 1](np.zeros(1), 1.5)
except TypingError as e:
    msg = str(e)
    assert "No implementation of function Function(<function only_ints" in msg, msg
    assert ">>> only_ints(float64)" in msg, msg
    assert "No match." in msg, msg
    assert "uses_float" in msg and "out[0] = only_ints(x)" in msg, msg  # where the call is
else:
    raise AssertionError("a float argument must not match")


@cuda.jit
def uses_complex(out, x):
    out[0] = only_ints(x)


try:
    uses_complex[1, 1](np.zeros(1), 1j)
except TypingError as e:
    assert "TypeError: complex numbers are refused: complex128" in str(e), str(e)
else:
    raise AssertionError("the typing function's error must surface")


def mismatch(a, b):
    pass


@overload(mismatch)
def ol_mismatch(a, b):
    def impl(a, c):
        return a
    return impl


@cuda.jit
def uses_mismatch(out):
    out[0] = mismatch(1, 2)


try:
    uses_mismatch[1, 1](np.zeros(1))
except TypingError as e:
    msg = str(e)
    assert "Typing and implementation arguments differ in argument names" in msg, msg
    assert '<Parameter "b">' in msg and '<Parameter "c">' in msg, msg
else:
    raise AssertionError("different signatures must be reported")
print("overload errors ok")
