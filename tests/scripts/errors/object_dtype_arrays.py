# Arrays of np.dtype('O') (Python objects) in kernels: numba types the dtype
# as dtype(pyobject) and rejects what is made of it with "Cannot infer the
# type of variable ..., have imprecise type: array(pyobject, Nd, C)", at the
# array's construction; an invalid dtype name keeps its own message.
# stdout: object dtype ok
import numpy as np
from numba import cuda
from numba.cuda import void
from numba.core.errors import TypingError


def shared_1d():
    arr = cuda.shared.array(10, dtype=np.dtype("O"))  # noqa: F841


def local_2d():
    buf = cuda.local.array((2, 3), np.dtype("object"))  # noqa: F841


def temporary(out):
    out[0] = cuda.local.array(4, dtype=np.dtype("O"))[0]


def bad_name():
    arr = cuda.shared.array(10, dtype="int33")  # noqa: F841


here = __file__
for fn, sig, line, col, message in (
        (shared_1d, void(), 13, 11, "Cannot infer the type of variable 'arr', have imprecise type: array(pyobject, 1d, C)."),
        (local_2d, void(), 17, 11, "Cannot infer the type of variable 'buf', have imprecise type: array(pyobject, 2d, C)."),
        (temporary, "void(int64[:])", 21, 14,
         "Cannot infer the type of a temporary value, have imprecise type: array(pyobject, 1d, C)."),
        (bad_name, void(), 25, 39, "Invalid NumPy dtype specified: 'int33'")):
    try:
        cuda.jit(sig)(fn)
        raise AssertionError("%s compiled" % fn.__name__)
    except TypingError as e:
        text = str(e)
        assert text.startswith("in '%s' at %s:%d:%d\n" % (fn.__name__, here, line, col)), text
        assert text.rstrip().endswith(message), text

# np.dtype('O') itself is a value numba types; only arrays of it are refused.
@cuda.jit
def fine(out):
    d = np.dtype("O")  # noqa: F841
    out[0] = 7


o = np.zeros(1, np.int64)
fine[1, 1](o)
assert o[0] == 7
print("object dtype ok")
