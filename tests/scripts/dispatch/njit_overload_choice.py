# numba.njit's choice among explicit signatures, as numba makes it (its
# type manager's selectOverload: the fewest unsafe, then safe, then
# promoting conversions; a tie is "Ambiguous overloading"): a table of
# argument types against signature sets, each overload's result checked
# against a NumPy reference of the signature numba picks. Then the reported
# case (int64 calls the float64 version) and the conversions numba's type
# manager learns from calls. The script runs unchanged under numba itself.
# stdout: njit overload choice ok
import numpy as np

rng = np.random.default_rng(20261128)

# The argument values, drawn at random in ranges where converting them to
# any candidate parameter type of the sets below gives a different result.
VALUES = {
    "int": int(rng.integers(2**40, 2**41)),
    "np.int64": np.int64(-rng.integers(2**43, 2**44)),
    "np.int32": np.int32(-rng.integers(2**30, 2**31)),
    "np.int16": np.int16(-rng.integers(2**14, 2**15)),
    "np.int8": np.int8(-rng.integers(64, 128)),
    "np.uint8": np.uint8(rng.integers(128, 256)),
    "np.uint16": np.uint16(rng.integers(2**15, 2**16)),
    "np.uint32": np.uint32(rng.integers(2**31, 2**32)),
    "np.uint64": np.uint64(2**63) + np.uint64(rng.integers(2**40, 2**41)),
    "bool": True,
    "np.float16": np.float16(rng.uniform(0.1, 0.9)),
    "np.float32": np.float32(rng.uniform(0.1, 0.9)),
    "float": float(rng.uniform(0.1, 0.9)),
    "complex": complex(rng.uniform(0.1, 0.9), 1.0),
}

SHORT = {"u2": "uint16", "i2": "int16", "u4": "uint32", "i4": "int32", "i8": "int64", "f4": "float32",
         "f8": "float64"}

# numba's choice for each (signature set, argument): the index of the
# signature it calls, "amb" (TypeError: Ambiguous overloading) or "none"
# (TypeError: No matching definition). Pinned from numba 0.68's njit; the
# choice is the same algorithm for kernel launches (numba-cuda's dispatcher).
TABLE = """
i4|f8     int:1 np.int64:1 np.int32:0 np.int16:0 np.int8:0 np.uint8:amb np.uint16:amb np.uint32:1 np.uint64:1
          bool:amb np.float16:1 np.float32:1 float:1 complex:none
i8|f4     int:0 np.int64:0 np.int32:0 np.int16:0 np.int8:0 np.uint8:amb np.uint16:0 np.uint32:0 np.uint64:amb
          bool:amb np.float16:1 np.float32:1 float:amb complex:none
f4|f8     int:1 np.int64:1 np.int32:1 np.int16:amb np.int8:amb np.uint8:amb np.uint16:1 np.uint32:1
          np.uint64:1 bool:amb np.float16:amb np.float32:0 float:1 complex:none
u4|i8     int:1 np.int64:1 np.int32:1 np.int16:1 np.int8:1 np.uint32:0 np.uint64:amb bool:amb np.float16:amb
          np.float32:amb float:amb complex:none
i2|f4|f8  int:2 np.int64:2 np.int32:2 np.int16:0 np.uint8:amb np.uint16:2 np.uint32:2 np.uint64:2 bool:amb
          np.float16:amb np.float32:1 float:2 complex:none
u2|i4|f4  int:amb np.int64:amb np.int32:1 np.int16:1 np.int8:1 np.uint32:amb np.uint64:amb bool:amb float:amb
          complex:none
"""


def expectations():
    current = None
    for line in TABLE.strip().splitlines():
        words = line.split()
        if not line.startswith(" "):
            current = words.pop(0)
        for w in words:
            value, outcome = w.split(":")
            yield current, value, outcome


def body(r, x):
    r[0] = x
    r[1] = x * 4611686018427387904 * 4  # 0 for an integer parameter (wraps), not for a float one
    r[2] = x * x  # float32 rounds where float64 does not


def host_reference(value, dtype):
    """body's results when x has type dtype, computed with NumPy."""
    dt = np.dtype(dtype)
    x = np.array([value]).astype(dt) if not isinstance(value, complex) else None
    r = np.zeros(3)
    with np.errstate(over="ignore"):
        r[0] = x[0]
        if dt.kind in "iu":
            wide = x.astype(np.int64 if dt.kind == "i" else np.uint64)
            r[1] = 0.0
            r[2] = (wide * wide)[0]
        else:
            r[1] = np.float64(x[0]) * 4611686018427387904.0 * 4.0
            r[2] = (x * x)[0]
    return r


def type_repr(value):
    return {"int": "int64", "bool": "bool", "float": "float64", "complex": "complex128"}.get(
        type(value).__name__, str(np.asarray(value).dtype))


ARRAY_REPR = "Array(float64, 1, 'C', False, aligned=True)"

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
