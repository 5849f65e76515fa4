# a.reshape(shape) in kernels: a view of a contiguous array under another
# shape given at run time (an int, a tuple or several ints; one extent may be
# -1), written through as numba's; F-ordered arrays reshape in F order;
# numba's ValueErrors for a size that does not match or several -1s (checked
# against numba's njit), and its TypingError for a non-contiguous array.
# stdout: reshape ok
import numpy as np
from numba import cuda

@cuda.jit
def r2(arr, shape, got):
    y = arr.reshape(shape)
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            got[i, j] = y[i, j]

@cuda.jit
def r1(arr, n, got):
    y = arr.reshape(n)
    for i in range(y.shape[0]):
        got[i] = y[i]
        y[i] += 1

rng = np.random.default_rng(1)
a = rng.standard_normal(24)
for shape in [(4, 6), (-1, 3), (2, -1)]:
    exp = a.reshape(shape)
    got = np.zeros(exp.shape)
    r2[1, 1](a, shape, got)
    assert np.array_equal(got, exp), (shape, got)
b = rng.standard_normal((5, 5))
orig = b.copy()
got = np.zeros(25)
r1[1, 1](b, -1, got)
assert np.array_equal(got, orig.reshape(-1))
assert np.array_equal(b, orig + 1)
f = np.asfortranarray(rng.standard_normal((4, 6)))
got = np.zeros((3, 8))
r2[1, 1](f, (3, 8), got)
assert np.array_equal(got, f.reshape((3, 8), order="F")), got
@cuda.jit(debug=True, opt=False)
def bad(arr, shape, got):
    y = arr.reshape(shape)
    got[0] = y[0, 0]
for shape, msg in [((5, 5), "total size of new array must be unchanged"), ((-1, -1), "multiple negative shape values"), ((-1, 5), "total size of new array must be unchanged")]:
    try:
        bad[1, 1](a, shape, np.zeros(1))
        raise SystemExit("no error for %s" % (shape,))
    except ValueError as e:
        assert msg in str(e), e
try:
    @cuda.jit("void(float64[:], float64[:])")
    def strided(a, o):
        o[0] = a.reshape(2)[0]
except Exception as e:
    assert type(e).__name__ == "TypingError" and "reshape() supports contiguous array only" in str(e), e
else:
    raise SystemExit("a non-contiguous array reshaped")
# Empty arrays: 0 extents, and -1 inferred as 0 (numba: (3, -1) of an empty array is (3, 0)).
e = np.zeros(0)
for shape, exp in [((1, 0, 2), (1, 0, 2)), ((3, -1), (3, 0))]:
    got = np.zeros(2, np.int64)

    @cuda.jit
    def shape_of(arr, shape, got):
        y = arr.reshape(shape)
        got[0] = y.shape[0]
        got[1] = y.shape[1]
    shape_of[1, 1](e, shape, got)
    assert tuple(got) == exp[:2], (shape, got)
print("reshape ok")
