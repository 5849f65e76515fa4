# Recursive device functions: self-recursion with an explicit signature and
# with an inferred one (typed from the return that does not recurse), mutual
# recursion with explicit signatures; runaway recursion is a TypingError.
import numpy as np
from numba import cuda


@cuda.jit("int64(int64)", device=True)
def fib_sig(n):
    if n < 2:
        return n
    return fib_sig(n - 1) + fib_sig(n - 2)


@cuda.jit(device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cuda.jit("int64(int64)", device=True)
def is_even(n):
    if n == 0:
        return 1
    return is_odd(n - 1)


@cuda.jit("int64(int64)", device=True)
def is_odd(n):
    if n == 0:
        return 0
    return is_even(n - 1)


@cuda.jit
def kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = fib_sig(x[i])
        out[1, i] = fib(x[i])
        out[2, i] = is_even(x[i])


def pyfib(n):
    return n if n < 2 else pyfib(n - 1) + pyfib(n - 2)


x = np.random.default_rng(2).integers(0, 18, 40)
out = np.zeros((3, 40), np.int64)
kernel[2, 32](x, out)
assert np.array_equal(out[0], [pyfib(int(v)) for v in x])
assert np.array_equal(out[1], out[0])
assert np.array_equal(out[2], (x % 2 == 0).astype(np.int64))


@cuda.jit(device=True)
def runaway(v):
    return runaway(v)


try:
    @cuda.jit("void(int64[:])")
    def bad(a):
        a[0] = runaway(a[0])
except Exception as e:
    assert type(e).__name__ == "TypingError" and "cannot type infer runaway recursion" in str(e), e
else:
    raise AssertionError("runaway recursion compiled")
print("ok")
