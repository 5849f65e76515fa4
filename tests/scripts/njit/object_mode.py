# numba.jit(forceobj=True) is object mode: the function works on Python
# objects (strings, lists, dicts, any class), reads globals at call time,
# survives pickling, and kernels refuse to call it with a clear error;
# nopython=False (the object-mode fallback) is refused, naming it.
# stdout: object mode ok
import pickle

import numpy as np
from numba import cuda, jit

SCALE = 3.0


@jit(forceobj=True)
def scaled(x):
    return SCALE * x


@jit(forceobj=True, looplift=True)
def histogram(words):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items())


class Box:
    value = None


@jit(forceobj=True)
def store(v):
    Box.value = v
    return Box.value


rng = np.random.default_rng(11)
x = float(rng.uniform(-10, 10))
assert scaled(x) == SCALE * x
SCALE = 5.0  # object mode reads globals when it runs
assert scaled(x) == 5.0 * x
assert histogram("a b a c b a".split()) == [("a", 3), ("b", 2), ("c", 1)]
assert store("text") == "text" and Box.value == "text"
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    again = pickle.loads(pickle.dumps(scaled, proto))
    assert again(x) == 5.0 * x


@cuda.jit
def kernel(a):
    a[0] = scaled(a[0])


try:
    kernel[1, 1](np.ones(1))
except NotImplementedError as e:
    assert "scaled is compiled in object mode (forceobj=True): kernels cannot call it" in str(e), str(e)
else:
    raise AssertionError("a kernel called an object-mode function")

try:
    jit(nopython=False)(lambda v: v)(1)
except NotImplementedError as e:
    assert "nopython=False (object mode fallback)" in str(e), str(e)
else:
    raise AssertionError("nopython=False accepted")
print("object mode ok")
