# Variables read on a path that never assigned them. numba accepts these
# (it checks no definite assignment, numba issues #2063 and #7327) and reads
# zero, because every variable is zero-initialized at the function's entry;
# cuhost does the same instead of reading undefined bits. A name that
# nothing assigns before its use is still a NameError.
# stdout: unbound locals ok: 6 checks
import numpy as np
from numba import cuda

rng = np.random.default_rng(99)
N = 256
xs = rng.integers(-20, 20, N).astype(np.int64)
fs = rng.standard_normal(N).astype(np.float32)
checks = 0


def check(got, want):
    global checks
    np.testing.assert_array_equal(got, want)
    checks += 1


# Assigned only inside an `if` without `else`, used after it.
@cuda.jit
def k_if(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        if xs[i] > 0:
            y = xs[i] * 3
        out[i] = y


out = np.full(N, -1, np.int64)
k_if[2, 128](out, xs)
check(out, np.where(xs > 0, xs * 3, 0))


# A float assigned in one branch of an if/elif chain.
@cuda.jit
def k_elif(out, xs, fs):
    i = cuda.grid(1)
    if i < out.size:
        if xs[i] > 5:
            v = fs[i] * 2
        elif xs[i] < -5:
            v = fs[i] - 1
        out[i] = v


out = np.full(N, -1, np.float32)
k_elif[2, 128](out, xs, fs)
check(out, np.where(xs > 5, fs * 2, np.where(xs < -5, fs - 1, 0)).astype(np.float32))


# A loop variable read after a loop that may not run; a value from a loop body.
@cuda.jit
def k_loop(out, last, xs):
    i = cuda.grid(1)
    if i < out.size:
        n = xs[i] % 5 if xs[i] > 0 else 0
        for j in range(n):
            s = j * 10
        out[i] = j
        last[i] = s


out = np.full(N, -1, np.int64)
last = np.full(N, -1, np.int64)
k_loop[2, 128](out, last, xs)
n = np.where(xs > 0, xs % 5, 0)
check(out, np.where(n > 0, n - 1, 0))
check(last, np.where(n > 0, (n - 1) * 10, 0))


# Read before the assignment on the first iteration of a loop.
@cuda.jit
def k_carried(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        acc = 0
        for j in range(4):
            if j > 0:
                acc += prev
            prev = xs[i] + j
        out[i] = acc


out = np.full(N, -1, np.int64)
k_carried[2, 128](out, xs)
check(out, 3 * xs + 0 + 1 + 2)


# Nothing assigns the name before it is read: NameError at the use.
@cuda.jit
def k_never(out):
    b = y  # noqa: F821
    y = b
    out[0] = y


try:
    k_never[1, 1](np.zeros(1, np.int64))
except NameError as e:
    assert "local variable 'y' is referenced before assignment" in str(e), str(e)
    assert ":%d:%d\n" % (96, 9) in str(e), str(e)
    checks += 1
else:
    raise AssertionError("no NameError")

print("unbound locals ok: %d checks" % checks)
