# print() in kernels and device functions (numba-cuda's formats: %lld / %llu
# for integers, %f for floats, True/False, strings as written, threadIdx & co.
# as (x, y, z), tuples as Python writes them, one space between items, a
# newline at the end) from several
# threads, in program order with the script's own prints when stdout is a
# pipe; unprintable values and keyword arguments are typing errors at their
# location.
# stdout: print checked
import contextlib
import io
import os
import subprocess
import sys

import numpy as np
from numba import cuda

here = os.path.dirname(os.path.abspath(__file__))
exe = os.path.realpath("/proc/self/exe")
if exe.endswith(".bin"):  # a bundle's wrapper runs the real binary
    exe = exe[:-4]
backend = cuda.backend()
seed = 1234

# The values the helper prints, computed the same way.
rng = np.random.default_rng(seed)
n = 6
a = rng.integers(-10**12, 10**12, n).astype(np.int64)
f = (rng.standard_normal(n) * 1000).astype(np.float32)
u = rng.integers(2**63, 2**64 - 1, n, dtype=np.uint64)
d = rng.standard_normal(n) * 1e6
assert (a > 0).any() and (a < 0).any()
item_lines = ["item %d %d %f %d %f %s 100%% done" % (i, a[i], float(f[i]), int(u[i]), d[i], a[i] > 0) for i in range(n)]
item_lines += ["dev %d %f -3" % (i, d[i]) for i in range(n)]
phase1 = ["phase1 %d" % t for t in range(8)]
phase2 = ["phase2 %d %d" % (t, (7 - t) ** 2) for t in range(8)]
many = ["", " ".join(["%lld"] * 33)]
dim_lines = ["dims (%d, %d, 0) (%d, 0, 0) (3, 2, 1) (2, 1, 1)" % (x, y, b) for x in range(3) for y in range(2) for b in range(2)]


def run_child(mode):
    p = subprocess.run([exe, "--backend", backend, "run", os.path.join(here, "_print_kernel.py"), str(seed), mode],
                       capture_output=True, text=True, cwd=here)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout.split("\n")


def check(lines):
    assert lines[-1] == "", lines  # the output ends with a newline
    lines = lines[:-1]
    at = {m: lines.index(m) for m in ("before", "middle", "between", "dims", "after")}
    assert at["before"] == 0 and lines[-1] == "after", lines
    # Threads print in any order, each line whole.
    assert sorted(lines[1:at["middle"]]) == sorted(item_lines), lines
    barrier = lines[at["middle"] + 1:at["between"]]
    assert sorted(barrier) == sorted(phase1 + phase2), barrier
    # Every phase-1 line comes before every phase-2 line (the barrier).
    assert max(barrier.index(s) for s in phase1) < min(barrier.index(s) for s in phase2), barrier
    assert lines[at["between"] + 1:at["dims"]] == many, lines
    assert sorted(lines[at["dims"] + 1:at["after"]]) == sorted(dim_lines), lines


check(run_child("flush"))
if backend == "cpu":
    # No flush anywhere: kernel output goes through sys.stdout, so it stays
    # in program order even when stdout is a pipe.
    check(run_child("order"))


@cuda.jit
def hello(x):
    print("x is", x[cuda.threadIdx.x], cuda.threadIdx.x == 1)


if backend == "cpu":
    buf = io.StringIO()
    vals = np.array([7, -8], np.int32)
    with contextlib.redirect_stdout(buf):
        print("start")
        hello[1, 2](vals)
        print("end")
    got = buf.getvalue().split("\n")
    assert got[0] == "start" and got[3] == "end" and got[4] == "", got
    assert sorted(got[1:3]) == ["x is -8 True", "x is 7 False"], got


# Tuples (nested too) print as Python writes them, with numba-cuda's number formats.
@cuda.jit
def tuples(t, x):
    print(t, (x[0], (x[1],)), ())


if backend == "cpu":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        tuples[1, 1]((3, (2.5, True), (-1,)), np.array([5, 6], np.uint32))
    assert buf.getvalue() == "(3, (2.500000, True), (-1,)) (5, (6,)) ()\n", buf.getvalue()


def raises(text, fn):
    try:
        fn()
    except cuda.TypingError as e:
        assert text in str(e), (text, str(e))
        return
    raise AssertionError("expected TypingError(%s)" % text)


def print_array(x):
    print(x)


def print_tuple(x):
    print(x[0], (x[0], x))


def print_sep(x):
    print(x[0], sep="")


def print_complex(x):
    print(x[0] * 1j)


xs = np.arange(4, dtype=np.float32)
raises("printing unimplemented for values of type array(float32, 1d, C)", lambda: cuda.jit(print_array)[1, 1](xs))
raises("test_print.py:%d" % (print_array.__code__.co_firstlineno + 1), lambda: cuda.jit(print_array)[1, 1](xs))
raises("printing unimplemented for values of type Tuple(float32, array(float32, 1d, C))",
       lambda: cuda.jit(print_tuple)[1, 1](xs))
raises("test_print.py:%d:17" % (print_tuple.__code__.co_firstlineno + 1), lambda: cuda.jit(print_tuple)[1, 1](xs))
raises("print() does not take keyword arguments in kernels ('sep' given)", lambda: cuda.jit(print_sep)[1, 1](xs))
raises("test_print.py:%d" % (print_sep.__code__.co_firstlineno + 1), lambda: cuda.jit(print_sep)[1, 1](xs))
raises("printing unimplemented for values of type complex128", lambda: cuda.jit(print_complex)[1, 1](xs))
print("print checked")
