# Regression from the differential fuzzer (tests/fuzz, seeds 113499 and
# 110712): which versions a `w = 0; while w < N:` loop leaves with follows
# numba's pruning of the test CPython places in front of the loop. numba
# prunes that test when it reads the constant (`w = 0`), so a loop without
# `break`/`continue` leaves with the body's version (uint8 here, `~v` is
# 255 - v). A live `continue` jumps back to that test, which then reads a
# join and is not pruned: the loop may leave from there with the version
# from before it (int64: `~v` is -(v + 1)), and a `w = 0; while w < 0:` body
# is typed. A live `break` leaves the exit with two predecessors, and numba's
# dead_branch_prune keeps the entry's value in the exit's join: int64 again.
# A `continue` in a branch on literals only (`if (2 < -1):`), or on a local
# assigned once from a literal, is removed before numba builds SSA. Each result is checked against numba 0.68.1's own
# (njit gives the same values: the int64 ones differ from plain Python's).
# stdout: while exit join ok
import numpy as np
from numba import cuda


@cuda.jit(device=True)
def with_continue(a, t, i):
    v = np.int64(a[i, 0]) * 3
    w = 0
    while w < 4:
        w += 1
        v = np.uint8(a[i, w] + t)
        if a[i, w] < t:
            continue
    return ~v


@cuda.jit(device=True)
def with_break(a, t, i):
    v = np.int64(a[i, 0]) * 3
    w = 0
    while w < 4:
        w += 1
        v = np.uint8(a[i, w] + t)
        if a[i, w] > 200 + t:
            break
    return ~v


@cuda.jit(device=True)
def no_jump(a, t, i):
    v = np.int64(a[i, 0]) * 3
    w = 0
    while w < 4:
        w += 1
        v = np.uint8(a[i, w] + t)
    return ~v


@cuda.jit(device=True)
def dead_continue(a, t, i):
    v = np.int64(a[i, 0]) * 3
    w = 0
    while w < 4:
        w += 1
        v = np.uint8(a[i, w] + t)
        if (2 < -1):
            continue
    return ~v


@cuda.jit(device=True)
def constant_continue(a, t, i):
    c = False  # the only definition: numba prunes `if c:` before SSA
    v = np.int64(a[i, 0]) * 3
    w = 0
    while w < 4:
        w += 1
        v = np.uint8(a[i, w] + t)
        if c:
            continue
    return ~v


@cuda.jit(device=True)
def reassigned_continue(a, t, i):
    c = False
    if a[i, 0] > 100:
        c = True  # two definitions: `if c:` stays, and so does the continue
    v = np.int64(a[i, 0]) * 3
    w = 0
    while w < 4:
        w += 1
        v = np.uint8(a[i, w] + t)
        if c:
            continue
    return ~v


@cuda.jit(device=True)
def zero_trip(a, t, i):
    v = np.uint8(a[i, 1])
    w = 0
    while w < 0:
        w += 1
        v = np.int64(a[i, 2]) * 2
        if a[i, w] < t:
            continue
    return ~v


@cuda.jit
def k(o, a, t):
    i = cuda.grid(1)
    if i < a.shape[0]:
        o[i, 0] = with_continue(a, t, i)
        o[i, 1] = with_break(a, t, i)
        o[i, 2] = no_jump(a, t, i)
        o[i, 3] = dead_continue(a, t, i)
        o[i, 4] = zero_trip(a, t, i)
        o[i, 5] = constant_continue(a, t, i)
        o[i, 6] = reassigned_continue(a, t, i)


rng = np.random.default_rng(113499)
n, t = 256, 3
a = rng.integers(0, 250, (n, 5)).astype(np.int64)
a[0, 1:] = [1, 250, 1, 2]      # a continue taken, then the last iteration's
a[1, 1:] = [240, 5, 6, 7]      # the break taken in the first iteration
o = np.zeros((n, 7), np.int64)
k[2, 128](o, a, t)

for i in range(n):
    last = int(a[i, 4] + t) % 256           # the uint8 the loop leaves with
    broke = [int(x) for x in a[i, 1:] if x > 200 + t]
    at_break = (broke[0] + t) % 256 if broke else last
    first = int(a[i, 1]) % 256
    want = [
        -(last + 1),                        # int64: join with the entry's int64
        -(at_break + 1),                    # int64: the entry's value kept in the exit join
        255 - last,                         # uint8 ~
        255 - last,                         # uint8 ~: the continue is removed
        -(first + 1),                       # int64: the body is typed, not run
        255 - last,                         # uint8 ~: `if c:` on a constant is removed
        -(last + 1),                        # int64: `c` has two definitions
    ]
    assert [int(x) for x in o[i]] == want, (i, o[i].tolist(), want, a[i].tolist())
print("while exit join ok")
