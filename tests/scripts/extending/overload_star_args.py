# An @overload implementation taking *args (numba's way to give a function of
# any arity): the remaining positional arguments reach it as one tuple, each
# with its own type, specialized per call shape. Results against NumPy on
# random data; **kwargs is refused with numba's message.
# stdout: overload *args ok
import numpy as np
from numba import cuda, literal_unroll
from numba.cuda.extending import overload


def weighted(w, *xs):
    raise NotImplementedError("kernels only")


@overload(weighted)
def ov_weighted(w, *xs):
    n = len(xs)

    def impl(w, *xs):
        s = 0.0
        k = 1
        for x in literal_unroll(xs):
            s += x * k
            k += 1
        return w * s + len(xs)

    if n == 0:
        return lambda w, *xs: w
    return impl


@cuda.jit
def kernel(out, w, a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = weighted(w[i])
        out[i, 1] = weighted(w[i], a[i])
        out[i, 2] = weighted(w[i], a[i], b[i])
        out[i, 3] = weighted(w[i], a[i], b[i], c[i])


rng = np.random.default_rng(23)
n = 300
w = rng.standard_normal(n)
a = rng.standard_normal(n).astype(np.float32)
b = rng.integers(-50, 50, n).astype(np.int16)
c = rng.standard_normal(n)
out = np.zeros((n, 4))
kernel[3, 128](out, w, a, b, c)
np.testing.assert_allclose(out[:, 0], w)
np.testing.assert_allclose(out[:, 1], w * a.astype(np.float64) + 1, rtol=1e-6)
np.testing.assert_allclose(out[:, 2], w * (a.astype(np.float64) + 2.0 * b) + 2, rtol=1e-6)
np.testing.assert_allclose(out[:, 3], w * (a.astype(np.float64) + 2.0 * b + 3 * c) + 3, rtol=1e-6)


def with_kwargs(x):
    raise NotImplementedError


@overload(with_kwargs)
def ov_with_kwargs(x):
    def impl(x, **kw):
        return x

    return impl


@cuda.jit
def uses_kwargs(out):
    out[0] = with_kwargs(out[0])


try:
    uses_kwargs[1, 1](np.zeros(1))
    raise AssertionError("**kwargs accepted")
except Exception as e:
    assert "The use of VAR_KEYWORD (e.g. **kwargs) is unsupported. (offending argument name is '**kw')" in str(e), e
print("overload *args ok")
