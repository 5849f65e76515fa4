# C -> numba calls flatten Optional[T] to T: a numba-ABI Python device
# function that may return None, called from a C-ABI device function, gives
# a zero T for None.
# stdout: optional flatten ok
import numpy as np
from numba import cuda


@cuda.jit(device=True)
def positive_or_none(x):
    if x > 0:
        return x
    return None


@cuda.jit(device=True, abi="c")
def flattened(x):
    return positive_or_none(x)


@cuda.jit
def k(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = flattened(xs[i])


rng = np.random.default_rng(13)
xs = rng.integers(-100, 100, 200).astype(np.int32)
out = np.full(200, -99, np.int32)
k[2, 128](out, xs)
np.testing.assert_array_equal(out, np.where(xs > 0, xs, 0))
print("optional flatten ok")
