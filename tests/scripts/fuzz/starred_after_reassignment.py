# Regression from the differential fuzzer (tests/fuzz, invalid programs with
# the defect spliced after other statements, seeds 300139/300032): a function
# that assigns a variable twice is copied for per-version typing
# (frontend/ssa_versions.cpp), and the copy (frontend/ast_clone.cpp) lost which
# call arguments were written `*arg`. `max(*oi)` after `v = 1; v = 3` (or a
# `while` counter) then said "max() in kernels takes at least 2 scalar
# arguments (1 given)" instead of the UnsupportedError it gives elsewhere.
# Starred calls of jitted functions and of complex() keep working there.
# stdout: starred after reassignment ok
import numpy as np
from numba import cuda
from numba.cuda.core.errors import UnsupportedError

STARRED = "*arguments are only supported in calls of jitted functions and of complex() in kernels"


@cuda.jit
def plain(oi):
    oi[0] = max(*oi)  # line 19


@cuda.jit
def reassigned(oi):
    v = 1
    v = 3
    oi[v] = max(*oi)  # line 26


@cuda.jit
def after_while(oi):
    w = 0
    while w < 4:
        w += 1
    oi[0] = max(*oi)  # line 34


for kernel, line in ((plain, 19), (reassigned, 26), (after_while, 34)):
    try:
        kernel[1, 1](np.zeros(4, np.int64))
    except UnsupportedError as e:
        msg = str(e)
        assert STARRED in msg, msg
        assert "starred_after_reassignment.py:%d:" % line in msg, msg
    else:
        raise AssertionError("%s accepted max(*array)" % kernel.__name__)


@cuda.jit(device=True)
def weigh(a, b=7, c=7):
    return a * 100 + b * 10 + c


@cuda.jit
def unpacks(out, xs, ys):
    i = cuda.grid(1)
    if i < xs.size:
        t = (xs[i], ys[i])
        v = 1
        v = xs[i] - ys[i]
        z = complex(*t)
        out[i, 0] = weigh(*t) + v
        out[i, 1] = weigh(*(t[0],)) - v
        out[i, 2] = z.real * z.imag


rng = np.random.default_rng(300139)
xs = rng.uniform(-50, 50, 97)
ys = rng.uniform(-50, 50, 97)
out = np.zeros((97, 3))
unpacks[2, 64](out, xs, ys)
want = np.stack([xs * 100 + ys * 10 + 7 + (xs - ys), xs * 100 + 7 * 10 + 7 - (xs - ys), xs * ys], axis=1)
np.testing.assert_allclose(out, want, rtol=1e-14, atol=1e-12)
print("starred after reassignment ok")
