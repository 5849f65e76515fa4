# Errors of numba.njit functions called on the host: raises inside the
# function come back with their class and message, numba's Python error
# model checks division by zero (the NumPy model does not), boundscheck=True
# checks indices, and what cannot be typed or passed is refused with
# numba's classes and clear messages.
# stdout: outer -3
# stdout: njit errors ok
import numpy as np
from numba import cuda, njit
from numba.core.errors import TypingError


def expect(exc, fn, *args, match=None):
    try:
        fn(*args)
    except exc as e:
        if match is not None:
            assert match in str(e), (str(e), match)
        return e
    raise AssertionError("%s did not raise %s" % (fn, exc.__name__))


class MyError(Exception):
    pass


@njit
def checked(x):
    if x < 0:
        raise ValueError("negative input")
    if x > 100:
        raise MyError("too large")
    return x + 1


assert checked(5) == 6
expect(ValueError, checked, -1, match="negative input")
e = expect(MyError, checked, 1000)
assert e.args[0] == "too large", e.args


# A raise in a callee comes back through its caller; assert statements too.
@njit
def outer(x):
    print("outer", x)
    return checked(x) * 2


assert outer(1) == 4
expect(ValueError, outer, -3, match="negative input")


@njit
def assert_positive(x):
    assert x > 0, "must be positive"
    return x


expect(AssertionError, assert_positive, -1, match="must be positive")


@njit
def div(a, b):
    return a // b


@njit
def fdiv(a, b):
    return a / b


expect(ZeroDivisionError, div, 1, 0)
expect(ZeroDivisionError, fdiv, 1.0, 0.0, match="division by zero")
assert np.isinf(njit(error_model="numpy")(lambda a, b: a / b)(1.0, 0.0))


@njit(boundscheck=True)
def at(a, i):
    return a[i]


expect(IndexError, at, np.arange(4), 7)
assert at(np.arange(4), 3) == 3


@njit
def tuple_at(t, i):
    return t[i]


expect(IndexError, tuple_at, (1, 2, 3), 5, match="tuple index out of range")

# Typing errors surface when called.
@njit
def bad(x):
    return x.no_such_attribute


expect(TypingError, bad, 1)
expect(TypingError, njit(lambda x: x), object())

# Exception arguments must be compile-time constants (as in kernels).
@njit
def runtime_args(x):
    raise ValueError("bad", x)


expect(Exception, runtime_args, 1, match="compile-time constants")

# Values that cannot cross the boundary, and constructs cuhost cannot compile.
expect(NotImplementedError, njit(lambda s: s), "text", match="is a str")
expect(NotImplementedError, njit(parallel=True)(lambda x: x), 1, match="parallel=True")
expect(NotImplementedError, __import__("numba").jit(nopython=False)(lambda x: x), 1,
       match="nopython=False (object mode fallback)")


@njit
def gen(n):
    for i in range(n):
        yield i


expect(NotImplementedError, gen, 3, match="a generator (yield)")
darr = cuda.to_device(np.arange(4))
expect(TypeError, njit(lambda a: a[0]), darr, match="device array")

# CUDA kernel features have no meaning on the host.
expect(TypingError, njit(lambda: cuda.threadIdx.x), match="CUDA kernel API")

# Explicit signatures turn lazy compilation off: other types convert or fail.
add = njit("int32(int32, int32)")(lambda a, b: a + b)
assert add(1.7, 4.2) == 5
expect(TypeError, add, 1j, 2, match="No matching definition")
print("njit errors ok")
