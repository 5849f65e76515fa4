# Optional values (numba's OptionalType): device functions that return a
# value on some paths and None (or fall off the end) on others, variables
# assigned None and a number, `is None` / `is not None` tests, an Optional
# used where a value is needed (a None there ends the thread, like numba's
# "expected T, got None"), conditional expressions with None, Optional
# arguments, and the typing errors around them.
# stdout: optional ok: 16 checks
import numpy as np
from numba import cuda

rng = np.random.default_rng(2024)
N = 300
checks = 0


def check(got, want):
    global checks
    np.testing.assert_array_equal(got, want)
    checks += 1


@cuda.jit(device=True)
def positive_or_none(x):
    if x > 0:
        return x
    return None


@cuda.jit(device=True)
def half_if_even(x):
    # Falls off the end on odd values.
    if x % 2 == 0:
        return x // 2


@cuda.jit(device=True)
def scaled_or_none(x, s):
    if x < 0:
        return
    elif x < 10:
        return 1
    return x * s  # float64: the Optional unifies to OptionalType(float64)


xs = rng.integers(-50, 50, N).astype(np.int32)
assert (xs > 0).any() and (xs <= 0).any()


# 1. `is not None` guards a use; `is None` as a value.
@cuda.jit
def k_guard(out, flags, xs):
    i = cuda.grid(1)
    if i < out.size:
        r = positive_or_none(xs[i])
        flags[i] = r is None
        if r is not None:
            out[i] = r * 3
        else:
            out[i] = -1


out = np.zeros(N, np.int32)
flags = np.zeros(N, np.bool_)
k_guard[3, 128](out, flags, xs)
check(out, np.where(xs > 0, xs * 3, -1))
check(flags, xs <= 0)


# 2. Falling off the end, and `is None` in an if.
@cuda.jit
def k_fall(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        h = half_if_even(xs[i])
        if h is None:
            out[i] = 1000
        else:
            out[i] = h


out = np.zeros(N, np.int64)
k_fall[3, 128](out, xs)
check(out, np.where(xs % 2 == 0, xs // 2, 1000))


# 3. int and float returns with None unify to OptionalType(float64).
@cuda.jit
def k_float(out, xs, s):
    i = cuda.grid(1)
    if i < out.size:
        r = scaled_or_none(xs[i], s)
        if r is not None:
            out[i] = r
        else:
            out[i] = np.nan


out = np.zeros(N, np.float64)
k_float[3, 128](out, xs, 0.25)
want = np.where(xs < 0, np.nan, np.where(xs < 10, 1.0, xs * 0.25))
check(out, want)


# 4. A variable assigned None and then a number on some paths.
@cuda.jit
def k_var(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        v = None
        if xs[i] > 5:
            v = xs[i] - 5
        if xs[i] < -40:
            v = 7
        if v is None:
            out[i] = 0
        else:
            out[i] = v + 100


out = np.zeros(N, np.int64)
k_var[3, 128](out, xs)
check(out, np.where(xs > 5, xs - 5 + 100, np.where(xs < -40, 107, 0)))


# 5. An Optional used where a value is needed: a None ends the thread, so
#    the later stores never happen (numba returns an error status).
@cuda.jit
def k_unwrap(out, after, xs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = positive_or_none(xs[i]) + 1
        after[i] = 1


out = np.full(N, -7, np.int32)
after = np.zeros(N, np.int32)
k_unwrap[3, 128](out, after, xs)
check(out, np.where(xs > 0, xs + 1, -7))
check(after, (xs > 0).astype(np.int32))


# 6. Conditional expressions with None, truthiness, and an Optional argument
#    specializing a device function that tests it.
@cuda.jit(device=True)
def plus_one_or_zero(y):
    if y is None:
        return 0
    return y + 1


@cuda.jit
def k_ifexp(out, truth, xs):
    i = cuda.grid(1)
    if i < out.size:
        v = xs[i] * 2 if xs[i] % 3 == 0 else None
        out[i] = plus_one_or_zero(v)
        truth[i] = 1 if v else 0  # None and 0 are false


out = np.zeros(N, np.int64)
truth = np.zeros(N, np.int32)
k_ifexp[3, 128](out, truth, xs)
m3 = xs % 3 == 0
check(out, np.where(m3, xs * 2 + 1, 0))
check(truth, (m3 & (xs != 0)).astype(np.int32))


# 7. Optional through two levels of device functions, at depth the None
#    still ends the calling thread.
@cuda.jit(device=True)
def relay(x):
    return positive_or_none(x)


@cuda.jit(device=True)
def doubled(x):
    return relay(x) * 2  # raises (ends the thread) on None


@cuda.jit
def k_depth(out, after, xs):
    i = cuda.grid(1)
    if i < out.size:
        r = relay(xs[i])
        if r is not None:
            out[i] = doubled(xs[i])
        after[i] = doubled(xs[i])


out = np.full(N, -1, np.int32)
after = np.full(N, -1, np.int64)
k_depth[3, 128](out, after, xs)
check(out, np.where(xs > 0, 2 * xs, -1))
check(after, np.where(xs > 0, 2 * xs, -1))


# 8. Typing errors, with the exact message and position.
def expect_error(kind, message, line, col, launch):
    global checks
    try:
        launch()
    except Exception as e:  # noqa: BLE001 - the class is checked by name
        text = str(e)
        assert type(e).__name__ == kind, (type(e).__name__, text)
        assert message in text, text
        assert ":%d:%d\n" % (line, col) in text, text
        checks += 1
        return
    raise AssertionError("no error for: " + message)


@cuda.jit
def k_bad_unify(out, a):
    v = None
    if out[0] > 0:
        v = 1
    if out[1] > 0:
        v = a
    out[0] = v is None


@cuda.jit
def k_bad_is(out, xs):
    r = positive_or_none(xs[0])
    out[0] = r is xs


# A variable assigned values of several types is typed per version (numba's
# SSA form): only where versions meet must their types unify.
expect_error("TypingError", "cannot unify array(float32, 1d, C) and OptionalType(int64) for variable 'v' "
             "(assigned at lines 218 and 215)", 217, 5,
             lambda: k_bad_unify[1, 1](np.zeros(2, np.int32), np.zeros(3, np.float32)))
expect_error("TypingError", "'is' comparisons in kernels are only supported with None", 225, 14,
             lambda: k_bad_is[1, 1](np.zeros(1, np.int32), xs))


# 9. debug=True reports the None on the host after the launch (numba raises
#    TypeError "expected int32, got None"); without a None nothing is reported.
@cuda.jit(debug=True, opt=False)
def k_debug(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = doubled(xs[i])


out = np.zeros(4, np.int32)
k_debug[1, 4](out, np.array([1, 2, 3, 4], np.int32))
check(out, [2, 4, 6, 8])
try:
    k_debug[1, 4](out, np.array([1, -2, 3, 4], np.int32))
except Exception as e:
    assert "expected int32, got None" in str(e) and "'k_debug'" in str(e), str(e)
    checks += 1
else:
    raise AssertionError("None not reported in debug mode")


# 10. Optional tuples unpacked, `+=` on an Optional local, builtins on an
#     Optional, a declared signature that unwraps, Optional arrays, while.
@cuda.jit(device=True)
def pair_or_none(x):
    if x > 0:
        return (x, x * 2)
    return None


@cuda.jit("int32(int32)", device=True)
def declared(x):
    if x > 0:
        return x


@cuda.jit
def k_misc(out, xs):
    i = cuda.grid(1)
    if i < xs.size:
        v = None
        if xs[i] > 2:
            v = xs[i]
        if v is not None:
            v += 10
        out[i, 0] = v if v is not None else -1
        p = pair_or_none(xs[i])
        if p is not None:
            a, b = p
            out[i, 1] = a + b
        out[i, 2] = min(positive_or_none(xs[i] + 100), 120)
        out[i, 3] = declared(xs[i] + 200)
        positive_or_none(xs[i])  # a discarded None ends nothing
        arr = out if xs[i] > -1000 else None
        arr[i, 4] = 9
        w = half_if_even(xs[i])
        while w is not None:
            out[i, 5] += w
            w = None


out = np.zeros((N, 6), np.int64)
k_misc[3, 128](out, xs)
want = np.zeros((N, 6), np.int64)
want[:, 0] = np.where(xs > 2, xs + 10, -1)
want[:, 1] = np.where(xs > 0, 3 * xs, 0)
want[:, 2] = np.minimum(xs + 100, 120)
want[:, 3] = xs + 200
want[:, 4] = 9
want[:, 5] = np.where(xs % 2 == 0, xs // 2, 0)
check(out, want)

print("optional ok: %d checks" % checks)
