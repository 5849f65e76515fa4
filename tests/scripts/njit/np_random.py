# np.random in numba.njit functions on the host: np.random.seed(int) and the
# scalar np.random.random / random_sample / rand draw numba's own Mersenne
# Twister, seeded as NumPy's legacy generator (the same seed gives NumPy's
# numbers), apart from the interpreter's np.random state; a module imported
# under another name (numpy.random as nprand) resolves the same; the
# functions pickle; kernels have no np.random (TypingError).
# stdout: njit np.random ok
import pickle

import numpy as np
import numpy.random as nprand
from numba import cuda, njit
from numba.cuda.core.errors import TypingError


@njit
def draws(seed, n):
    np.random.seed(seed)
    a = np.random.random()
    b = np.random.random_sample()
    c = np.random.rand()
    total = 0.0
    for _ in range(n):
        total += np.random.random()
    return a, b, c, total


@njit
def renamed(x):
    nprand.seed(42)
    return np.cos(x), nprand.random()


@njit
def unseeded():
    return np.random.random()


def numpy_draws(seed, n):
    rs = np.random.RandomState(seed)
    a, b, c = rs.random_sample(), rs.random_sample(), rs.random_sample()
    total = 0.0
    for _ in range(n):
        total += rs.random_sample()
    return a, b, c, total


rng = np.random.default_rng(7356)
for seed in [0, 1, 42, 2**32 - 1] + [int(s) for s in rng.integers(0, 2**32, size=4)]:
    n = int(rng.integers(0, 1500))  # past one refill of the 624-word state
    assert draws(seed, n) == numpy_draws(seed, n), (seed, n, draws(seed, n), numpy_draws(seed, n))

# The interpreter's np.random is not the compiled code's.
np.random.seed(3)
expected = np.random.random()
np.random.seed(3)
draws(99, 10)
assert np.random.random() == expected

assert renamed(0.0) == (1.0, np.random.RandomState(42).random_sample()), renamed(0.0)
again = pickle.loads(pickle.dumps(renamed))
assert again(0.0) == renamed(0.0)

u = unseeded()
assert 0.0 <= u < 1.0 and isinstance(u, float), u
assert unseeded() != u


@cuda.jit
def kernel(out):
    np.random.seed(1)
    out[0] = np.random.random()


try:
    kernel[1, 1](np.zeros(1))
except TypingError:
    pass
else:
    raise AssertionError("np.random typed in a kernel")

print("njit np.random ok")
