# Mutual recursion without signatures, typed as numba types it: a function in
# the cycle that is still being typed gives the others its return type once a
# return that does not recurse has typed it; functions typed against that
# provisional type are typed again as it settles. A two- and a three-function
# cycle (int and float returns mixed, results against the same Python
# functions on random data), each function also called on its own, and a
# cycle with no way out: a TypingError naming the function and its line.
# stdout: two-cycle ok
# stdout: three-cycle ok
# stdout: runaway ok
import numpy as np
from numba import cuda
from numba.core.errors import TypingError


def py_up(n):
    return 0 if n <= 0 else py_down(n - 1) + 1


def py_down(n):
    return 0 if n <= 0 else py_up(n - 1) + 2


@cuda.jit(device=True)
def up(n):
    if n <= 0:
        return 0
    return down(n - 1) + 1


@cuda.jit(device=True)
def down(n):
    if n <= 0:
        return 0
    return up(n - 1) + 2


@cuda.jit
def two(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = up(i)
        out[i, 1] = down(i)


out = np.zeros((40, 2), np.int64)
two[1, 64](out)
np.testing.assert_array_equal(out, [[py_up(i), py_down(i)] for i in range(40)])
print("two-cycle ok")


def py_a(n, x):
    return x if n <= 0 else py_b(n - 1, x * 0.5)


def py_b(n, x):
    return 1 if n <= 0 else py_c(n - 1, x) + 1


def py_c(n, x):
    return x if n <= 0 else py_a(n - 1, x + 1.0)


@cuda.jit(device=True)
def a(n, x):
    if n <= 0:
        return x
    return b(n - 1, x * 0.5)


@cuda.jit(device=True)
def b(n, x):
    if n <= 0:
        return 1  # an int here, a float through c: b returns float64
    return c(n - 1, x) + 1


@cuda.jit(device=True)
def c(n, x):
    if n <= 0:
        return x
    return a(n - 1, x + 1.0)


@cuda.jit
def three(out, x):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = a(i, x[i])
        out[i, 1] = b(i, x[i])
        out[i, 2] = c(i, x[i])


x = np.random.default_rng(17).standard_normal(30)
res = np.zeros((30, 3))
three[1, 32](res, x)
np.testing.assert_allclose(res, [[py_a(i, x[i]), py_b(i, x[i]), py_c(i, x[i])] for i in range(30)], rtol=1e-15)
print("three-cycle ok")


@cuda.jit(device=True)
def ping(n):
    return pong(n)


@cuda.jit(device=True)
def pong(n):
    return ping(n) + 1


@cuda.jit
def runaway(out):
    out[0] = ping(3)


try:
    runaway[1, 1](np.zeros(1))
except TypingError as e:
    text = str(e)
    assert "cannot type infer runaway recursion: no return statement of 'ping'" in text, text
    assert "mutual_recursion_inferred.py:" in text, text
else:
    raise AssertionError("a cycle with no non-recursive return was typed")
print("runaway ok")
