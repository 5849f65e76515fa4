# numba's dead-branch pruning: a condition numba decides before typing
# leaves its dead side untyped, so that side takes no part in unification
# (`u[0] if True else 5` is uint64; with a runtime condition it is float64)
# and may even fail to type. Decided: literals after CPython's folding,
# constant globals, locals assigned once from a constant or a comparison,
# comparisons of those, `is None`/`== None` (and negations) of an argument
# that is None or omitted with a None default, `not`, and/or with a deciding
# operand, `a.ndim` / `len(t)` of arguments. Not decided: a boolean argument
# alone, `x` truth of a None argument, an omitted non-None default compared
# with None. Expected types are numba 0.68's (njit; numba's Literal[int](5)
# return type is int64 here). Kernels check values on random data.
# stdout: constant conditions ok
import numpy as np
from numba import cuda, njit
from numba.core.errors import TypingError

DEBUG = True
ZERO = 0
NONE = None
U = np.arange(3, dtype=np.uint64)
RUNTIME = "float64"  # uint64 with the int64 literal: both sides typed

CASES = [  # (condition in `u[0] if COND else 5`, numba's type)
    ("True", "uint64"), ("False", "int64"), ("1", "uint64"), ("0", "int64"), ("None", "int64"),
    ("1.5", "uint64"), ("0.0", "int64"), ("1 < 2", "uint64"), ("2 < 1", "int64"), ("not True", "int64"),
    ("not False", "uint64"), ("not 0", "uint64"), ("1 + 1 == 2", "uint64"), ("1 == 1.0", "uint64"),
    ("(1, 2)", "uint64"), ("()", "int64"), ("'a'", "uint64"), ("''", "int64"), ("DEBUG", "uint64"),
    ("ZERO", "int64"), ("NONE", "int64"), ("not DEBUG", "int64"), ("True and c", RUNTIME),
    ("c and True", RUNTIME), ("False or c", RUNTIME), ("True or c", "uint64"), ("-1", "uint64"),
    ("1 - 1", "int64"), ("2 * 3 > 5", "uint64"), ("1 < 2 < 3", "uint64"), ("None is None", "uint64"),
    ("c is None", RUNTIME), ("1 != 2", "uint64"), ("c == c", RUNTIME), ("c and False", "int64"),
]
LOCALS = [  # (body before `return u[0] if k else 5`, numba's type)
    ("k = True", "uint64"), ("k = 0", "int64"), ("k = 1 < 2", "uint64"), ("k = DEBUG", "uint64"),
    ("k = c", RUNTIME),
    ("k = True\n    k = False", "int64"),  # the assignment that reaches the condition (an SSA version)
    ("k = 0\n    k += 1", RUNTIME),
]
ARGS = [  # (function source, extra arguments, numba's type)
    ("def f(u, x=None):\n    return u[0] if x is None else 5\n", (), "uint64"),
    ("def f(u, x=None):\n    return u[0] if x is None else 5\n", (None,), "uint64"),
    ("def f(u, x=None):\n    return u[0] if x is None else 5\n", (3,), RUNTIME),
    ("def f(u, x=None):\n    return u[0] if x is not None else 5\n", (), "int64"),
    ("def f(u, x=None):\n    return u[0] if x == None else 5\n", (), "uint64"),
    ("def f(u, x=None):\n    return u[0] if x != None else 5\n", (), "int64"),
    ("def f(u, x=None):\n    return u[0] if None is x else 5\n", (), "uint64"),
    ("def f(u, x=None):\n    return u[0] if not (x is None) else 5\n", (), "int64"),
    ("def f(u, x=None):\n    y = x\n    return u[0] if y is None else 5\n", (), "uint64"),
    ("def f(u, x=None):\n    return u[0] if x else 5\n", (), RUNTIME),
    ("def f(u, x=None):\n    return u[0] if not x else 5\n", (), RUNTIME),
    ("def f(u, x=None):\n    return u[0] if x is None and u[1] > 0 else 5\n", (), RUNTIME),
    ("def f(u, x=None):\n    return u[0] if x is not None and u[1] > 0 else 5\n", (), "int64"),
    ("def f(u, x=None):\n    return u[0] if u[1] > 0 or x is None else 5\n", (), "uint64"),
    ("def f(u, x=None):\n    return u[0] if (x is None) == True else 5\n", (), RUNTIME),
    ("def f(u, x=1):\n    return u[0] if x is None else 5\n", (), RUNTIME),
    ("def f(u, x=1):\n    return u[0] if x == 1 else 5\n", (), RUNTIME),
    ("def f(u, x=None):\n    if x is None:\n        y = u[0]\n    else:\n        y = 5\n    return y\n", (), "uint64"),
    ("def f(u, c):\n    if 1 < 2:\n        y = u[0]\n    else:\n        y = 5\n    return y\n", (True,), "uint64"),
    ("def f(u, c):\n    if c:\n        y = u[0]\n    else:\n        y = 5\n    return y\n", (True,), RUNTIME),
    ("def f(u, x=None):\n    if x is not None:\n        return x + (1, 2)\n    return u[0]\n", (), "uint64"),
    ("def f(u, c):\n    if not True:\n        return u[0] + (1, 2)\n    return u[0]\n", (True,), "uint64"),
    ("def f(u, c):\n    y = not True\n    if y:\n        return u[0] + (1, 2)\n    return u[0]\n", (True,), "uint64"),
    ("def f(u, c):\n    if c and False:\n        return u[0] + (1, 2)\n    return u[1]\n", (True,), "uint64"),
    # Code after an `if` pruned to a side that returns is dead: never typed.
    ("def f(u, x=None):\n    if x is None:\n        return u[0]\n    return u[0] + (1, 2)\n", (), "uint64"),
    ("def f(u, c):\n    if 1 < 2:\n        return u[0]\n    return u[0] + (1, 2)\n", (True,), "uint64"),
    ("def f(u, c):\n    if u.ndim == 1:\n        return u[0]\n    return u[0] + (1, 2)\n", (True,), "uint64"),
    ("def f(u, c):\n    for i in range(2):\n        if True:\n            break\n        c = u[0] + (1, 2)\n    return u[0]\n",
     (True,), "uint64"),
    # CPython tests a while loop's condition once before entering it, with the definitions before the loop.
    ("def f(u, c):\n    w = 0\n    while w < 0:\n        w += 1\n        return u[0] + (1, 2)\n    return u[0]\n", (True,),
     "uint64"),
    ("def f(u, c):\n    w = 0\n    while w < 2:\n        w += 1\n    return u[0] if w == 2 else 5\n", (True,), RUNTIME),
    ("def f(u, c):\n    while False:\n        return u[0] + (1, 2)\n    return u[0]\n", (True,), "uint64"),
    ("def f(u, c):\n    return (u[0] if c else 5) if True else (1, 2)\n", (True,), RUNTIME),
    ("def f(u, c):\n    return u[0] if u.ndim == 1 else (1, 2)\n", (True,), "uint64"),
    # and/or as values: a deciding constant operand ends the result, a passing one drops out.
    ("def f(u, c):\n    return True and u[0]\n", (True,), "uint64"),
    ("def f(u, c):\n    return 5 or u[0]\n", (True,), "int64"),
    ("def f(u, c):\n    return 0 or u[0]\n", (True,), "uint64"),
    ("def f(u, c):\n    return u[0] or 5\n", (True,), RUNTIME),
    ("def f(u, c):\n    return 0 or c or u[0]\n", (True,), "uint64"),
    ("def f(u, c):\n    return None or u[0]\n", (True,), "uint64"),
    ("def f(u, c):\n    return (1 < 2) and u[0]\n", (True,), "uint64"),
    ("def f(u, c):\n    k = 0\n    return k or u[0]\n", (True,), "uint64"),
    ("def f(u, c):\n    return c or 5\n", (True,), "int64"),
]

for cond, want in CASES:
    ARGS.append(("def f(u, c):\n    return u[0] if %s else 5\n" % cond, (True,), want))
for body, want in LOCALS:
    ARGS.append(("def f(u, c):\n    %s\n    return u[0] if k else 5\n" % body, (True,), want))

problems = []
for src, extra, want in ARGS:
    g = {"np": np, "DEBUG": DEBUG, "ZERO": ZERO, "NONE": NONE}
    exec(src, g)
    f = njit(g["f"])
    f(U, *extra)
    got = str(f.nopython_signatures[0].return_type)
    if got != want:
        problems.append("%r %r: %s, numba %s" % (src, extra, got, want))
assert not problems, "\n".join(problems)


# Kernels: the pruned side keeps uint64 values above 2**53 exact; a runtime
# condition rounds them through float64.
@cuda.jit(device=True)
def pick(a, i, scale=None):
    v = a[i] if scale is None else 5
    w = a[i] if DEBUG else 5
    return v, w


@cuda.jit(device=True)
def early(a, i, scale=None):
    if scale is None:
        return a[i]
    return a[i] + (1, 2)  # dead when scale is None: never typed or compiled


@cuda.jit(device=True)
def skip(a, i):
    v = a[i]
    for j in range(3):
        if not 0:
            if True:
                continue
            if a[j] > v:  # dead: after a pruned `if True: continue`
                v = a[j] + (1, 2)
    return v


@cuda.jit(device=True)
def count(a, i):
    w = 0
    while w < 3:  # true on entry only: still a loop
        w += 1
    n = 0
    while n < 0:  # false on entry: the body is dead
        n = a[i] + (1, 2)
    return a[i] + np.uint64(w - 3)


@cuda.jit
def kernel(u, c, out, rounded, flags):
    i = cuda.grid(1)
    if i < u.size:
        v, w = pick(u, i)
        out[i, 0] = v
        out[i, 1] = w
        out[i, 2] = 0 or u[i]
        out[i, 3] = u[i] if 1 < 2 else 5
        out[i, 4] = (ZERO != 0) or u[i]
        out[i, 5] = early(u, i)
        out[i, 6] = skip(u, i)
        out[i, 7] = count(u, i)
        rounded[i] = u[i] if c[i] else 5
        flags[i] = c[i] and False or (1 < 2)


rng = np.random.default_rng(3)
u = rng.integers(2**53, 2**63, 200, dtype=np.uint64) | np.uint64(1)
c = rng.random(200) < 0.5
out = np.zeros((200, 8), np.uint64)
rounded = np.zeros(200, np.float64)
flags = np.zeros(200, np.bool_)
kernel[2, 128](u, c, out, rounded, flags)
for j in range(8):
    assert np.array_equal(out[:, j], u), (j, out[:, j], u)
assert np.array_equal(rounded, np.where(c, u.astype(np.float64), 5.0)), rounded
assert flags.all(), flags

# Where numba types both sides, a side that does not type is an error.
@cuda.jit(device=True)
def both_sides(a, i, scale=None):
    return a[i] if scale is not None else a[i] + (1, 2)


@cuda.jit
def refused(u, out):
    out[0] = both_sides(u, 0, u[1])  # scale is a uint64 value: `scale is not None` is not decided


try:
    refused[1, 1](u, np.zeros(1, np.uint64))
except TypingError as e:
    text = str(e)
    line = next(n for n, l in enumerate(open(__file__), 1) if "if scale is not None else a[i] + (1, 2)" in l)
    assert "constant_conditions.py:%d:43" % line in text and "cannot add uint64 and UniTuple(int64 x 2)" in text, text
else:
    raise AssertionError("the untaken side was not typed")

# A runtime condition types both sides: numba refuses to unify them.
def both(u, c):
    return u[0] if c else (1, 2)


try:
    njit(both)(U, True)
except TypingError as e:
    line = next(n for n, l in enumerate(open(__file__), 1) if "return u[0] if c else (1, 2)" in l)
    assert "constant_conditions.py:%d:12" % line in str(e), str(e)
    assert "cannot unify uint64 and UniTuple(int64 x 2) in a conditional expression" in str(e), str(e)
else:
    raise AssertionError("a tuple and a number unified")
print("constant conditions ok")
