# A loop variable that lives only inside its loops is one variable per loop
# (numba's SSA form): consecutive `for v in ...` loops over tuples of
# different types type `v` separately. Where `v` is read after a loop, or
# assigned outside loop headers, it stays one variable and must unify.
# tuple(t) of a tuple is t, tuple() the empty tuple.
# stdout: loop variables ok
import numpy as np
from numba import cuda
from numba.core.errors import TypingError


@cuda.jit
def readout(a, res):
    pairs = (cuda.int8x2(a[0], a[1]), cuda.int8x2(a[2], a[3]))
    triples = (cuda.int8x3(a[0], a[1], a[2]), cuda.int8x3(a[3], a[4], a[5]))
    j = 0
    for v in pairs:
        res[j] = v.x + v.y
        j += 1
    for v in tuple(triples):
        res[j] = v.x + v.y + v.z
        j += 1
    for v in (1.5, 2.5):
        res[j] = v * 2
        j += 1
    for v in range(3):
        res[j] = v
        j += 1
    if len(tuple()) == 0:
        res[j] = 100


a = np.arange(1, 7, dtype=np.int8)
res = np.zeros(10, np.float64)
readout[1, 1](a, res)
assert list(res) == [3, 7, 6, 15, 3, 5, 0, 1, 2, 100], res


def read_after(res):
    for v in (1, 2):
        res[0] = v
    for v in (1.5, 2.5):
        res[1] = v
    res[2] = v  # the last loop's value: v stays one variable (float64)


r = np.zeros(3)
cuda.jit(read_after)[1, 1](r)
assert list(r) == [2, 2.5, 2.5], r


def mixed(res):
    for v in (cuda.int8x2(1, 2),):
        res[0] = v.x
    for v in (cuda.int8x3(1, 2, 3),):
        res[1] = v.z
    res[2] = v.z  # read after the loops: one variable, which cannot unify


try:
    cuda.jit(mixed)[1, 1](r)
except TypingError as e:
    assert "cannot unify int8x2 and int8x3 for variable 'v'" in str(e), str(e)
else:
    raise AssertionError("no TypingError")


def not_a_tuple(res):
    for v in tuple(res):
        res[0] = v


try:
    cuda.jit(not_a_tuple)[1, 1](r)
except TypingError as e:
    assert "tuple() in kernels takes a tuple, not array(float64, 1d, C)" in str(e), str(e)
else:
    raise AssertionError("no TypingError")
print("loop variables ok")
