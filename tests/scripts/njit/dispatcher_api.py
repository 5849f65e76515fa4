# numba's dispatcher API on numba.njit functions: py_func, signatures,
# overloads, nopython_signatures, compile(), disable_compile(),
# inspect_types/llvm/asm, and pickling (by value; loads of one pickle give
# one dispatcher).
# stdout: njit dispatcher api ok
import io
import pickle

import numpy as np
from numba import jit, njit, types


def add(a, b):
    return a + b


f = njit(add)
assert f.py_func is add and f.__name__ == "add" and f.__wrapped__ is add
assert f.signatures == []
assert f(1, 2) == 3 and f(1.5, 2) == 3.5
assert f.signatures == [(types.int64, types.int64), (types.float64, types.int64)], f.signatures
assert set(f.overloads) == set(f.signatures)
ov = f.overloads[(types.int64, types.int64)]
assert ov.signature.return_type == types.int64
assert [s.return_type for s in f.nopython_signatures] == [types.int64, types.float64]

# Repeated calls reuse the specialization.
for _ in range(100):
    f(3, 4)
assert len(f.signatures) == 2

# Eager signatures; compilation is then off.
g = jit("float64(float64, float64)", nopython=True)(add)
assert g.signatures == [(types.float64, types.float64)]
assert g(1, 2) == 3.0 and isinstance(g(1, 2), float)
g2 = njit([types.int32(types.int32, types.int32), types.float64(types.float64, types.float64)])(add)
assert isinstance(g2(np.int32(1), np.int32(2)), int) and isinstance(g2(1.5, 2.0), float)
# int64 -> float64 is safe in numba's rules (int64 -> int32 unsafe): fewer unsafe conversions win.
assert g2(1, 2) == 3.0 and isinstance(g2(1, 2), float)
g3 = njit([types.int32(types.int32, types.int32), types.float32(types.float32, types.float32)])(add)
try:
    g3(1, 2)  # int64 converts unsafely to both: numba's ambiguity
    raise AssertionError("no ambiguity")
except TypeError as e:
    assert str(e) == ("Ambiguous overloading for %r (int64, int64):\n(int32, int32) -> int32\n"
                      "(float32, float32) -> float32" % (add,)), str(e)
assert len(g2.signatures) == 2

h = njit(add)
h.compile("(int32, int32)")
assert h.signatures == [(types.int32, types.int32)]
h.disable_compile()
assert h(np.int32(2), np.int32(5)) == 7

# Inspection.
buf = io.StringIO()
f.inspect_types(file=buf)
assert "add" in buf.getvalue() and "int64" in buf.getvalue()
llvm = f.inspect_llvm()
assert set(llvm) == set(f.signatures) and all("define" in text for text in llvm.values())
asm = f.inspect_asm((types.int64, types.int64))
assert isinstance(asm, str) and asm

# Pickling: by value, one dispatcher per pickled original.
def make(k):
    @njit
    def inner(x):
        return x * k

    return inner


p = make(3)
assert p(2) == 6
data = pickle.dumps(p)
assert pickle.loads(data) is p
q = pickle.loads(pickle.dumps(njit(add)))
assert q(2, 3) == 5
print("njit dispatcher api ok")
