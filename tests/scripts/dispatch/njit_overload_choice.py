# numba.njit's choice among explicit signatures, as numba makes it (its
# type manager's selectOverload: the fewest unsafe, then safe, then
# promoting conversions; a tie is "Ambiguous overloading"): a table of
# argument types against signature sets, each overload's result checked
# against a NumPy reference of the signature numba picks. Then the reported
# case (int64 calls the float64 version) and the conversions numba's type
# manager learns from calls. The script runs unchanged under numba itself.
# stdout: njit overload choice ok
import numpy as np

from _overload_table import *  # noqa: F401,F403 - the shared table (VALUES, CASES, reference, ...)

from numba import njit

dispatchers = {}
for set_name in {s for s, _, _ in expectations()}:
    dispatchers[set_name] = njit(["void(float64[::1], %s)" % SHORT[c] for c in set_name.split("|")])(body)

checked = 0
for set_name, vname, outcome in expectations():
    f, v, codes = dispatchers[set_name], VALUES[vname], set_name.split("|")
    r = np.zeros(3)
    where = "%s with %s" % (set_name, vname)
    if outcome in ("none", "amb"):
        try:
            f(r, v)
            raise AssertionError("%s: called, numba raises" % where)
        except TypeError as e:
            msg = str(e)
        if outcome == "none":
            assert msg == "No matching definition for argument type(s) array(float64, 1d, C), %s" % type_repr(v), msg
        else:
            first, *tied = msg.split("\n")
            assert first == "Ambiguous overloading for %r (%s, %s):" % (body, ARRAY_REPR, type_repr(v)), (where, msg)
            sigs = ["(%s, %s) -> none" % (ARRAY_REPR, SHORT[c]) for c in codes]
            assert len(tied) >= 2 and all(t in sigs for t in tied), (where, msg)
    else:
        f(r, v)
        refs = [host_reference(v, SHORT[c]) for c in codes]
        chosen = int(outcome)
        for i, ref in enumerate(refs):  # each overload gives a different result: the check can fail
            assert i == chosen or not np.array_equal(ref, refs[chosen]), (where, i)
        assert np.array_equal(r, refs[chosen]), (where, r, refs)
    checked += 1
assert checked == 77, checked

# The reported case: float64 and int32 versions, called with an int64.
a = rng.uniform(-1, 1, 16)
picked = njit(["float64(float64[::1], int32)", "float64(float64[::1], float64)"])(lambda a, x: a[3] * x)
big = np.int64(rng.integers(2**40, 2**41))
assert picked(a, big) == a[3] * float(big)  # int32 would have wrapped
assert picked(a, np.int32(-3)) == a[3] * -3.0

# Two arguments converting unsafely to one of each: numba's message, every tie listed.
crossed = njit(["float64(int32, float64)", "float64(float64, int32)"])(lambda x, y: x - y)
try:
    crossed(np.int64(5), np.int64(2))
    raise AssertionError("no ambiguity")
except TypeError as e:
    assert str(e) == ("Ambiguous overloading for %r (int64, int64):\n(int32, float64) -> float64\n"
                      "(float64, int32) -> float64" % (crossed.py_func,)), str(e)
assert crossed(np.int32(5), 2.5) == 2.5 and crossed(2.5, np.int32(5)) == -2.5

# numba's type manager knows the casting table, and learns other conversions
# (array layouts here) only when no signature fits a call; they stay learned.
def scaled_first(a, x):
    return a[0, 0] * x


learn = njit(["int64(int16[:, ::1], int32)", "float64(int16[:, :], float64)"])(scaled_first)
m = rng.integers(1, 100, (3, 3)).astype(np.int16)
k = np.int64(rng.integers(2, 50))
first = learn(m, k)
assert isinstance(first, int) and first == m[0, 0] * k  # the layout conversion is not known yet
try:
    learn(m, 1j)
    raise AssertionError("complex accepted")
except TypeError as e:
    assert "No matching definition" in str(e), str(e)
again = learn(m, k)
assert isinstance(again, float) and again == float(m[0, 0] * k)  # C -> A learned: fewer unsafe conversions

# A tie of the type manager that the typing context resolves: numba raises RuntimeError.
def total(a, x, y):
    return a[0] + x + y


tri = njit(["float64(uint16[::1], int32, float64)", "float64(uint16[::1], float64, int32)",
            "complex128(uint16[:], float64, float64)"])(total)
u = rng.integers(1, 100, 4).astype(np.uint16)
try:
    tri(u, np.int64(1), np.int64(2))
    raise AssertionError("no RuntimeError")
except RuntimeError as e:
    assert str(e) == "_explain_ambiguous must raise an exception", str(e)
try:
    tri(u, 1j, 1j)
except TypeError:
    pass
assert tri(u, np.int64(1), np.int64(2)) == complex(u[0] + 3)
print("njit overload choice ok")
