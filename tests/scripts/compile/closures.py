# Functions defined inside kernels and device functions (numba's
# make_function): called in place or passed to other jitted functions,
# closing over constants of the enclosing function and over globals, with
# *args, *tuple call arguments, keyword arguments and defaults; numba's
# errors for closure variables that are not constants. Results are checked
# against the same Python functions run by the interpreter.
# stdout: closures ok
import numpy as np
from numba import cuda
from numba.cuda.core.errors import TypingError

rng = np.random.default_rng(11)
SCALE = int(rng.integers(2, 9))


@cuda.jit
def apply(func, *args):
    return func(*args)


@cuda.jit
def apply_kw(func, a, b):
    return func(a, b, bias=7) + func(a, b)


def factory(apply_fn):
    def impl(x):
        offset = 10
        shift = -3

        def affine(v, bias=1):
            return v * SCALE + offset + bias + shift

        def twice(v, w, bias=2):
            def add(p, q):
                return p + q

            return add(affine(v), affine(w)) + bias

        return (affine(x), apply_fn(affine, x), apply_fn(affine, x, 5), apply_fn(twice, x, x + 1),
                apply_kw(twice, x, 2))

    return impl


impl_jit = cuda.jit(device=True)(factory(apply))
impl_py = factory(apply.py_func)


@cuda.jit
def kernel(out, xs):
    i = cuda.grid(1)
    if i < xs.size:
        r = impl_jit(xs[i])
        for k in range(5):
            out[i, k] = r[k]


# The reference runs apply_kw as a Python function too.
apply_kw_jit = apply_kw
xs = rng.integers(-100, 100, 64)
out = np.zeros((64, 5), np.int64)
kernel[1, 64](out, xs)
apply_kw = apply_kw_jit.py_func
try:
    expected = np.array([impl_py(int(x)) for x in xs])
finally:
    apply_kw = apply_kw_jit
np.testing.assert_array_equal(out, expected)

# A lambda is a device function like any other.
square = cuda.jit(device=True)(lambda v: v * v + SCALE)


@cuda.jit
def use_lambda(out, xs):
    i = cuda.grid(1)
    if i < xs.size:
        out[i] = apply(square, xs[i])


sq = np.zeros(64, np.int64)
use_lambda[1, 64](sq, xs)
np.testing.assert_array_equal(sq, xs * xs + SCALE)


def expect(fn, text):
    try:
        cuda.jit("void(int64)")(fn)
    except TypingError as e:
        assert text in str(e), str(e)
        return
    raise AssertionError("no TypingError for " + fn.__name__)


def twice_defined(c):
    if c:
        x = 3
    else:
        x = 6

    def inner(y):
        return y + x

    apply(inner, 1)


def not_constant(c):
    z = c * 2

    def inner(y):
        return y + z

    apply(inner, 1)


def captures_argument(c):
    def inner(y):
        return y + c

    apply(inner, 1)


expect(twice_defined, "Cannot capture a constant value for variable 'x' as there are multiple definitions present.")
expect(not_constant, "Cannot capture the non-constant value associated with variable 'z' in a function that may escape.")
expect(captures_argument, "Cannot capture the non-constant value associated with variable 'c'")

# Kernels cannot take *args; calls check their arguments as Python does.
@cuda.jit
def varargs_kernel(out, *rest):
    out[0] = rest[0]


try:
    varargs_kernel[1, 1](sq, 1)
except Exception as e:
    assert "kernels cannot take *args" in str(e), str(e)
else:
    raise AssertionError("a kernel with *args launched")


def too_many(out):
    out[0] = square(1, 2)


def missing(out):
    out[0] = apply_kw(square)


for fn, text in [(too_many, "takes 1 positional argument but 2 were given"),
                 (missing, "missing required argument 'a'")]:
    try:
        cuda.jit(fn)[1, 1](sq)
    except TypingError as e:
        assert text in str(e), str(e)
    else:
        raise AssertionError("no error for " + fn.__name__)
print("closures ok")
