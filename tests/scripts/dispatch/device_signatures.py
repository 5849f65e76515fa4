# Device functions with explicit signatures convert their arguments to the
# best matching signature, as numba's overload resolution does (fewest
# unsafe, then safe, then promoting conversions; unsafe ones included), and
# a call nothing converts to is a TypingError naming the argument types.
# Also: string literal arguments compare at typing, a 0-d integer array
# indexes as its value, and device functions list the signatures kernels
# called them with.
# stdout: device signatures ok
import numpy as np
from numba import cuda
from numba.cuda.core.errors import TypingError


def add(x, y):
    return x + y


def kernel_for(dev):
    @cuda.jit
    def k(r, x, y):
        r[0] = dev(x, y)

    return k


ints_and_floats = kernel_for(cuda.jit(["(int64, int64)", "(float64, float64)"], device=True)(add))
r = np.zeros(1, np.float64)
ints_and_floats[1, 1](r, np.int32(1), 2.5)  # int32 -> float64 is safe, float64 -> int64 unsafe
assert r[0] == 3.5, r
r = np.zeros(1, np.int64)
ints_and_floats[1, 1](r, 1, 2)
assert r[0] == 3, r
try:
    ints_and_floats[1, 1](np.zeros(1, np.complex128), 1j, 1j)
except TypingError as e:
    assert "Invalid use of type" in str(e) and "with parameters (complex128, complex128)" in str(e), str(e)
else:
    raise AssertionError("complex arguments converted to a real signature")

only_ints = kernel_for(cuda.jit("int32(int32, int32)", device=True)(add))
r = np.zeros(1, np.int64)
only_ints[1, 1](r, 1.75, 2.5)  # truncated to int32 each, as numba casts
assert r[0] == 3, r
dev = cuda.jit(device=True)(add)
kernel_for(dev)[1, 1](np.zeros(1), 1.0, 2.0)
assert [str(t) for t in dev.signatures[0]] == ["float64", "float64"], dev.signatures


@cuda.jit(device=True)
def pick(a, which):
    if which == "first":
        return a[0]
    return a[1]


@cuda.jit
def picks(out, a, i):
    out[0] = pick(a, "first")
    out[1] = pick(a, "second")
    out[2] = a[i]  # i is a 0-d array


out = np.zeros(3)
picks[1, 1](out, np.array([4.0, 5.0, 6.0]), np.asarray(2))
assert list(out) == [4.0, 5.0, 6.0], out
print("device signatures ok")
