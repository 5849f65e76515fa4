# A variable assigned values of several types is typed per version, as
# numba types each SSA version of it: only where versions meet (after an
# `if`, at a loop's head or exit) are their types unified, and each version
# computes in its own type before that. Results against NumPy references
# written with numba's types (each checked against numba's njit), on random
# data; a join numba cannot unify is a TypingError naming the variable and
# the lines of both assignments, with the caret at the join.
# stdout: ssa versions ok: 9 checks
import numpy as np
from numba import cuda

rng = np.random.default_rng(20261128)
n = 64
a32 = rng.uniform(0.1, 2.0, n).astype(np.float32)
u16 = rng.integers(0, 60000, n).astype(np.uint16)
flags = rng.integers(0, 2, n).astype(np.int32)
checks = 0


def check(name, got, want):
    global checks
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    assert np.array_equal(got, want), (name, got[:4], want[:4])
    checks += 1


@cuda.jit
def float32_then_float64(a, out, out_y):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]  # float32
        y = x * x  # a float32 product, rounded as float32
        x = 1.5  # a float64 version of x
        out[i] = y + x
        out_y[i] = y


out = np.zeros(n)
out_y = np.zeros(n)
float32_then_float64[1, n](a32, out, out_y)
check("float32 version", out_y, (a32 * a32).astype(np.float64))
check("float64 sum", out, (a32 * a32).astype(np.float64) + 1.5)


@cuda.jit
def uint16_then_literal(t, out_w, out_v):
    i = cuda.grid(1)
    if i < t.size:
        v = t[i]
        v &= v  # uint16 & uint16 is uint64 in numba
        w = v
        v = 255  # no join: the uint16 versions are not widened to float64
        out_w[i] = w
        out_v[i] = v


out_w = np.zeros(n, np.uint64)
out_v = np.zeros(n, np.int64)
uint16_then_literal[1, n](u16, out_w, out_v)
check("uint16 &", out_w, u16.astype(np.uint64))
check("literal version", out_v, np.full(n, 255, np.int64))


@cuda.jit
def branch_join(a, c, out_x, out_y):
    i = cuda.grid(1)
    if i < a.size:
        if c[i]:
            x = a[i]
            y = x * x  # float32 inside the branch; the join is float64
        else:
            x = 1.0
            y = 2.0
        out_x[i] = x
        out_y[i] = y


out_x = np.zeros(n)
branch_join[1, n](a32, flags, out_x, out_y)
check("join x", out_x, np.where(flags == 1, a32.astype(np.float64), 1.0))
check("join y", out_y, np.where(flags == 1, (a32 * a32).astype(np.float64), 2.0))


@cuda.jit
def loops(a, out):
    # the head of the while loop is int64; the exit version (a break after
    # a float assignment) is float64
    r = 0
    while True:
        r = r + 1
        if r > 10:
            r = 2.5
            break
    # a for loop with a break: the exit unifies int64 and float32 (float64)
    x = 0
    for i in range(a.size):
        x = x + 1
        if a[i] > 1.9:
            x = a[i]
            break
    # an accumulator starting from an integer literal, with continue
    s = 0
    for i in range(a.size):
        if a[i] < 0.5:
            continue
        s += a[i]
    out[0] = r
    out[1] = x
    out[2] = s


loop_out = np.zeros(3)
loops[1, 1](a32, loop_out)
brk = np.nonzero(a32 > 1.9)[0]
want_x = np.float64(a32[brk[0]]) if brk.size else np.float64(n)
acc = np.float64(0)
for v in a32:
    if v >= 0.5:
        acc = acc + np.float64(v)  # float64 accumulator: int64 0 joined with float32 + int64 sums
check("loop versions", loop_out, np.array([2.5, want_x, acc]))


@cuda.jit
def entered_loop(a, out):
    # CPython tests a while condition before the loop and again at the end
    # of each iteration; numba prunes the first test when it is true for
    # sure (w = 0; w < 4), so the loop leaves with the body's version of v
    # (int64, whose square wraps to 1), never the float64 one from before
    # the loop. A loop that may not run leaves with the join of both.
    v = a[0] * 1.0
    w = 0
    while w < 4:
        w += 1
        v = 9223372036854775807
    out[0] = v * v
    u = a[0] * 1.0
    m = 0
    while m < a.size - 100:
        m += 1
        u = 9223372036854775807
    out[1] = u * u


entered_loop[1, 1](a32, loop_out)
check("loop entered for sure", loop_out[:2], np.array([1.0, (np.float64(a32[0]) * 1.0) ** 2]))


@cuda.jit
def bad_join(a, out):
    if a[0] > 0:
        x = 1
    else:
        x = (1, 2)
    out[0] = x


try:
    bad_join[1, 1](a32, out)
except Exception as e:  # noqa: BLE001 - the class is checked by name
    text = str(e)
    assert type(e).__name__ == "TypingError", text
    assert ("cannot unify int64 and UniTuple(int64 x 2) for variable 'x' (assigned at lines %d and %d)"
            % (bad_join.py_func.__code__.co_firstlineno + 3, bad_join.py_func.__code__.co_firstlineno + 5)) in text, text
    assert ":%d:5\n" % (bad_join.py_func.__code__.co_firstlineno + 2) in text, text
    checks += 1
else:
    raise AssertionError("no TypingError for a join of int64 and a tuple")
print("ssa versions ok: %d checks" % checks)
