# Kernel errors arrive as data (support/kernel_error.h): the exact class,
# arguments and message numba-cuda gives, with the raise's file, line and
# function and the failing thread's position, for a launch with debug=True
# and for a numba.njit call from the host.
# stdout: kernel error records ok
import builtins

import numpy as np
from numba import cuda, njit

SOURCE = open(__file__).read().splitlines()


def line_of(fragment):
    (line,) = [i + 1 for i, text in enumerate(SOURCE) if fragment in text and "line_of" not in text]
    return line


class Overflowing(Exception):
    pass


@cuda.jit(debug=True, opt=False)
def scale(out, x, limit, bad):
    i = cuda.grid(1)
    if i < x.size:
        if i == bad:
            raise Overflowing("value past the limit")  # raise-with-argument
        if x[i] > limit:
            raise ValueError  # bare-raise
        out[i] = x[i] * 2.0


rng = np.random.default_rng(2024)
n = 300
x = rng.uniform(0, 1, n)
out = np.zeros(n)
scale[3, 128](out, x, 2.0, -1)
np.testing.assert_array_equal(out, x * 2.0)

# A raise with an argument, in block 1: the class itself, numba-cuda's message.
out[:] = 0
try:
    scale[3, 128](out, x, 2.0, 130)
except Overflowing as e:
    expect = "In function 'scale', file %s, line %d, tid=[2, 0, 0] ctaid=[1, 0, 0]: value past the limit" % (
        __file__,
        line_of("# raise-with-argument"),
    )
    assert type(e) is Overflowing and str(e) == expect, (type(e), str(e), expect)
    assert e.args == (expect,), e.args
else:
    raise AssertionError("no Overflowing")
# The raising thread ended before its store; what the others stored is right
# (the CPU backend starts no new block once a launch failed).
done = np.flatnonzero(out)
assert 130 not in done and len(done) >= 128, len(done)
np.testing.assert_array_equal(out[done], x[done] * 2.0)

# A bare raise: no argument, so the message ends with the position.
x[257] = 5.0
try:
    scale[3, 128](out, x, 2.0, -1)
except ValueError as e:
    expect = "In function 'scale', file %s, line %d, tid=[1, 0, 0] ctaid=[2, 0, 0]" % (__file__, line_of("# bare-raise"))
    assert type(e) is ValueError and str(e) == expect, (type(e), str(e), expect)
else:
    raise AssertionError("no ValueError")


# A failed check named after a built-in class: a cuda.KernelError that is
# also that class, naming the kernel, the code and the thread.
@cuda.jit
def stepped(a, step):
    b = a[::step]
    a[0] = len(b)


try:
    stepped[1, 1](np.zeros(4), 0)
except Exception as e:  # noqa: BLE001 - the class is checked below
    assert isinstance(e, cuda.KernelError) and isinstance(e, builtins.ValueError), type(e).__mro__
    assert type(e).__name__ == "KernelValueError", type(e).__name__
    assert str(e) == "error in kernel 'stepped': ValueError: slice step cannot be zero (code 0, thread (0,0,0), block (0,0,0))", str(e)
else:
    raise AssertionError("no KernelValueError")


# An index out of bounds in a launch names the array, kernel and thread.
@cuda.jit(debug=True, opt=False)
def gather(out, src, k):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = src[i + k]


src = rng.uniform(0, 1, 100)
dst = np.zeros(64)
try:
    gather[2, 32](dst, src, 40)
except IndexError as e:
    assert type(e) is IndexError, type(e)
    assert str(e) == (
        "index 100 is out of bounds for axis 0 with size 100 (array 'src' in kernel 'gather', thread (28,0,0), "
        "block (1,0,0))"
    ), str(e)
else:
    raise AssertionError("no IndexError")


# Calls from the host (numba.njit): the class with its argument alone, as
# Python raises it.
@njit
def checked(v):
    if v < 0:
        raise Overflowing("negative")
    if v == 0:
        raise KeyError
    return v * 3


assert checked(7) == 21
for arg, cls, args in ((-1, Overflowing, ("negative",)), (0, KeyError, ())):
    try:
        checked(arg)
    except cls as e:
        assert type(e) is cls and e.args == args, (type(e), e.args)
    else:
        raise AssertionError("no %s" % cls.__name__)


# Every argument travels with its Python type, as numba keeps it (checked
# against numba 0.68's njit and numba-cuda 0.30's launch messages): floats in
# Python's shortest spelling, ints, booleans, None, tuples, bytes.
@njit
def typed_args(v):
    if v == 1:
        raise ValueError("a", 2)
    if v == 2:
        raise ValueError(0.1)
    if v == 3:
        raise ValueError(True, 1e16, -3)
    if v == 4:
        raise ValueError(None)
    if v == 5:
        raise ValueError((1, "x"))
    if v == 6:
        raise ValueError(1.0, 2.5e-7, 1e15)
    return v


expected_args = {1: ("a", 2), 2: (0.1,), 3: (True, 1e16, -3), 4: (None,), 5: ((1, "x"),), 6: (1.0, 2.5e-7, 1e15)}
for v, args in expected_args.items():
    try:
        typed_args(v)
    except ValueError as e:
        assert e.args == args and [type(a) for a in e.args] == [type(a) for a in args], (v, e.args)
    else:
        raise AssertionError("no ValueError for %d" % v)
assert str(ValueError(*expected_args[6])) == "(1.0, 2.5e-07, 1000000000000000.0)"


@cuda.jit(debug=True, opt=False)
def raise_several(x):
    if x[0] > 0:
        raise ValueError(0.1, 2, "b")  # raise-several


try:
    raise_several[1, 1](np.ones(1))
    cuda.synchronize()
except ValueError as e:
    prefix = "In function 'raise_several', file %s, line %d, tid=[0, 0, 0] ctaid=[0, 0, 0]" % (
        __file__,
        line_of("raise-several"),
    )
    assert e.args == (prefix + ": 0.1", 2, "b"), e.args
else:
    raise AssertionError("no ValueError from raise_several")


@njit(boundscheck=True)
def pick(a, i):
    return a[i]


try:
    pick(np.arange(5.0), 9)
except IndexError as e:
    assert str(e) == "index 9 is out of bounds for axis 0 with size 5 (array 'a' in 'pick')", str(e)
else:
    raise AssertionError("no IndexError from pick")

print("kernel error records ok")
