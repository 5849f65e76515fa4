# Eager signatures compile at decoration and then admit only their types:
# scalars convert, arrays must match dtype/ndim/layout, anything else is a
# TypingError listing the signatures.
# stdout: eager signatures ok
import numpy as np
from numba import cuda
from numba.cuda import types


@cuda.jit("void(float32[::1], int32)")
def fill(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = v


assert [tuple(map(str, s)) for s in fill.signatures] == [("array(float32, 1d, C)", "int32")], fill.signatures
a = np.zeros(40, np.float32)
v = int(np.random.default_rng(3).integers(1, 1000))
fill[1, 64](a, v)          # int64 -> int32
np.testing.assert_array_equal(a, np.full(40, v, np.float32))
fill[1, 64](a, np.int16(7))
np.testing.assert_array_equal(a, np.full(40, 7, np.float32))

# A float for the int32 parameter: numba-cuda packs it with ctypes, which refuses it.
try:
    fill[1, 32](a, 1.5)
    raise AssertionError("a float was packed as an int32")
except TypeError as e:
    assert str(e) == "'float' object cannot be interpreted as an integer", str(e)

bads = [(np.zeros(4, np.float64), 1), (np.zeros((2, 2), np.float32), 1),
        (cuda.to_device(np.zeros(8, np.float32))[::2], 1)]
if cuda.backend() == "cpu":
    # Host arrays run in place on the CPU, so a strided view keeps its A layout;
    # on a GPU it travels as a C-contiguous copy and matches float32[::1].
    bads.append((np.zeros(8, np.float32)[::2], 1))
for bad in bads:
    try:
        fill[1, 32](*bad)
        raise AssertionError("accepted %r" % (bad,))
    except TypeError as e:  # numba-cuda: a TypeError, not a TypingError
        msg = str(e)
        assert "No matching definition for argument type(s)" in msg, msg
        assert "(array(float32, 1d, C), int32)" in msg, msg

@cuda.jit([types.void(types.float64[:], types.float64), "void(int32[:], int32)"])
def add(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += v


f = np.arange(10, dtype=np.float64)
add[1, 32](f, 0.5)
np.testing.assert_allclose(f, np.arange(10) + 0.5)
g = np.arange(10, dtype=np.int32)
add[1, 32](g, 3)
np.testing.assert_array_equal(g, np.arange(10) + 3)
assert len(add.signatures) == 2

# specialize() compiles for the given arguments' types; a dispatcher with
# explicit signatures is already specialized (numba-cuda's RuntimeError).
try:
    fill.specialize(np.zeros(3, np.float32), np.int32(1))
    raise AssertionError("specialize() of an eager dispatcher must raise")
except RuntimeError as e:
    assert "Dispatcher already specialized" in str(e), str(e)
lazy = cuda.jit(fill.py_func)
s = lazy.specialize(np.zeros(3, np.float32), np.int32(1))
assert s is not lazy and len(s.signatures) == 1


# The signature needing the cheapest conversions wins (exact, then widening,
# then safe, then narrowing); two equally good ones are ambiguous.
def add_into(r, x, y):
    r[0] = x + y


ranked = cuda.jit(["(float64[::1], float32, float32)", "(float64[::1], float64, float64)",
                   "(float64[::1], int64, int64)"])(add_into)
r = np.zeros(1)
ranked[1, 1](r, np.float32(0.5), np.float32(0.25))  # exact float32 match
assert r[0] == 0.75
ranked[1, 1](r, 3, 4)  # exact int64
assert r[0] == 7.0
ranked[1, 1](r, np.int32(2), np.int16(5))  # widening to int64 beats converting to a float
assert r[0] == 7.0 and len(ranked.overloads) == 3
amb = cuda.jit(["(float64[::1], float32, float64)", "(float64[::1], float64, float32)",
                "(float64[::1], int64, int64)"])(add_into)
try:
    amb[1, 1](r, 1.0, 2.0)
    raise AssertionError("an ambiguous launch was accepted")
except TypeError as e:
    expected = ("Ambiguous overloading for %r (Array(float64, 1, 'C', False, aligned=True), float64, float64):\n"
                "(Array(float64, 1, 'C', False, aligned=True), float32, float64) -> none\n"
                "(Array(float64, 1, 'C', False, aligned=True), float64, float32) -> none" % (add_into,))
    assert str(e) == expected, str(e)
print("eager signatures ok")
