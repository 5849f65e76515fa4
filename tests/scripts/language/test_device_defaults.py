# Device functions with default parameter values: a call may leave the last
# parameters out or pass them by keyword; the callee is specialized on the
# default (a constant), as numba does with omitted arguments. A default that
# is not a constant is refused where a call leaves it out.
# stdout: device defaults ok
import numpy as np
from numba import cuda
from numba.cuda.core.errors import TypingError


@cuda.jit(device=True)
def blend(a, b, weight=0.25, bias=None):
    r = a * (1.0 - weight) + b * weight
    if bias is not None:
        r += bias
    return r


@cuda.jit
def kernel(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = blend(x[i], y[i])
        out[i, 1] = blend(x[i], y[i], 0.5)
        out[i, 2] = blend(x[i], y[i], bias=2.0)
        out[i, 3] = blend(x[i], bias=-1.0, b=y[i], weight=1.0)


rng = np.random.default_rng(2)
x = rng.standard_normal(40)
y = rng.standard_normal(40)
out = np.zeros((40, 4))
kernel[2, 32](x, y, out)
np.testing.assert_allclose(out[:, 0], 0.75 * x + 0.25 * y, rtol=1e-12)
np.testing.assert_allclose(out[:, 1], 0.5 * x + 0.5 * y, rtol=1e-12)
np.testing.assert_allclose(out[:, 2], 0.75 * x + 0.25 * y + 2.0, rtol=1e-12)
np.testing.assert_allclose(out[:, 3], y - 1.0, rtol=1e-12)

table = np.arange(3.0)


@cuda.jit(device=True)
def lookup(i, t=table):
    return t[i]


@cuda.jit
def uses_array_default(out):
    out[0] = lookup(1)


try:
    uses_array_default[1, 1](np.zeros(1))
except TypingError as e:
    assert "default value" in str(e) and "'t'" in str(e), str(e)
else:
    raise AssertionError("an array default must be refused")
print("device defaults ok")
