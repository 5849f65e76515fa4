# Tuples inside kernels and device functions: `+` of homogeneous and
# heterogeneous tuples (a.shape + (1,)), constant indexing (negative too),
# runtime indexing of a homogeneous tuple, slicing by literal bounds,
# len(), `for x in t` over a homogeneous tuple, `*` by a literal count (and
# its typing error for a runtime count), and tuples returned from
# device functions. Results are checked against Python on random data.
# stdout: tuples: all checks passed
import numpy as np
from numba import cuda

rng = np.random.default_rng(3)


@cuda.jit(device=True)
def minmax(a, b):
    if a < b:
        return a, b
    return b, a


@cuda.jit
def concat_and_index(a, out):
    if cuda.grid(1) == 0:
        s = a.shape + (1,)
        out[0] = len(s)
        out[1] = s[0] * 100 + s[1] * 10 + s[-1]
        t = (a[0, 0], a[0, 1]) + (a[1, 0],) + (7, 2.5)
        out[2] = len(t)
        out[3] = t[0] + t[1] * 2 + t[2] * 3 + t[-2] * 4 + t[-1] * 5
        u = t[1:4]
        out[4] = len(u)
        out[5] = u[0] + 10 * u[2]
        w = s[::-1]
        out[6] = w[0] * 100 + w[1] * 10 + w[2]
        e = t[3:1]
        out[7] = len(e)
        lo, hi = minmax(a[1, 1], a[0, 2])
        out[8] = lo - hi
        p = minmax(a[1, 2], a[0, 0]) + minmax(1.0, 0.0)
        out[9] = p[0] + 2 * p[1] + 4 * p[2] + 8 * p[3]
        h = (1, 2, 3)[-3]
        out[10] = h


a = rng.random((4, 3))
out = np.zeros(11)
concat_and_index[1, 1](a, out)
t = (a[0, 0], a[0, 1], a[1, 0], 7, 2.5)
p = tuple(sorted((a[1, 2], a[0, 0]))) + (0.0, 1.0)
expected = [3, 431, 5, t[0] + t[1] * 2 + t[2] * 3 + t[-2] * 4 + t[-1] * 5, 3, t[1] + 10 * t[3], 134, 0,
            min(a[1, 1], a[0, 2]) - max(a[1, 1], a[0, 2]), p[0] + 2 * p[1] + 4 * p[2] + 8 * p[3], 1]
np.testing.assert_allclose(out, expected, rtol=1e-15)


@cuda.jit
def iterate(a, idx, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        t = (a[i, 0], a[i, 1], a[i, 2], a[i, 3])
        s = 0.0
        k = 1
        for x in t:
            s += x * k
            k += 1
        out[i, 0] = s
        # a runtime index into a homogeneous tuple, negative ones wrap
        out[i, 1] = t[idx[i]]
        total = 0
        for d in a.shape:
            total += d
        out[i, 2] = total
        for pair in ((1, 2), (3, 4)):
            out[i, 3] += pair[0] * pair[1]


a = rng.random((40, 4))
idx = rng.integers(-4, 4, 40)
out = np.zeros((40, 4))
iterate[2, 32](a, idx, out)
np.testing.assert_allclose(out[:, 0], a @ np.arange(1, 5))
np.testing.assert_array_equal(out[:, 1], a[np.arange(40), idx])
np.testing.assert_array_equal(out[:, 2], 44)
np.testing.assert_array_equal(out[:, 3], 14)


@cuda.jit
def repeat(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        t = (a[i, 0], a[i, 1]) * 3
        u = 2 * (a[i, 2],)
        z = (a[i, 0],) * 0
        acc = 0.0
        w = 1.0
        for x in t:
            acc += x * w
            w += 1.0
        out[i, 0] = len(t) + 10 * len(u) + 100 * len(z)
        out[i, 1] = acc
        out[i, 2] = u[0] - 2.0 * u[1]


r = rng.standard_normal((50, 3))
o = np.zeros((50, 3))
repeat[1, 64](r, o)
np.testing.assert_array_equal(o[:, 0], 26.0)
w = np.array([1, 2, 3, 4, 5, 6], np.float64)
np.testing.assert_allclose(o[:, 1], r[:, 0] * (w[0] + w[2] + w[4]) + r[:, 1] * (w[1] + w[3] + w[5]), rtol=1e-12)
np.testing.assert_array_equal(o[:, 2], -r[:, 2])


def repeat_runtime(a, n):
    t = (a[0], a[1]) * n
    a[0] = t[0]


try:
    cuda.jit(repeat_runtime)[1, 1](np.zeros(2), 3)
except Exception as e:
    assert type(e).__name__ == "TypingError", type(e)
    assert "a tuple can only be repeated a literal number of times" in str(e), str(e)
    assert "test_tuples.py:" in str(e), str(e)
else:
    raise AssertionError("a tuple repeated a runtime number of times compiled")
print("tuples: all checks passed")
