# cuda.In / cuda.Out / cuda.InOut hints and argument-preparation extensions
# (cuda.jit(extensions=[...]) or kernel.extensions.append): In copies to the
# device only, Out copies back only, InOut (a bare host array) both ways; an
# extension's prepare_args(ty, val, stream=, retr=) sees each argument's
# numba type and value and may replace them and queue write-backs.
# stdout: hints ok
import numpy as np
from numba import cuda
from numba.cuda.args import ArgHint, wrap_arg


@cuda.jit
def scale_into(out, x, k):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * k
        x[i] = -1.0


rng = np.random.default_rng(11)
n = 300
x = rng.random(n)
out = np.zeros(n)
x0 = x.copy()
scale_into[4, 128](cuda.Out(out), cuda.In(x), 3.0)
np.testing.assert_array_equal(out, x0 * 3.0)  # Out: copied back
np.testing.assert_array_equal(x, x0)  # In: never copied back
scale_into[4, 128](cuda.Out(out), cuda.InOut(x), 2.0)
np.testing.assert_array_equal(out, x0 * 2.0)
assert (x == -1.0).all()  # InOut: copied back
d = cuda.to_device(x0)
scale_into[4, 128](cuda.Out(out), cuda.In(d), 5.0)  # a device array is used as it is
np.testing.assert_array_equal(out, x0 * 5.0)
assert (d.copy_to_host() == -1.0).all()
assert isinstance(wrap_arg(x), cuda.InOut) and wrap_arg(cuda.In(x)).value is x
assert str(cuda.In(x)._numba_type_) == "array(float64, 1d, C)"

seen = []


class DefaultIn:
    """Host arrays are copied in only; records what it was given."""

    def prepare_args(self, ty, val, stream=0, retr=None):
        seen.append((str(ty), type(val).__name__))
        if isinstance(val, np.ndarray):
            return ty, wrap_arg(val, default=cuda.In)
        return ty, val


kernel = cuda.jit(scale_into.py_func)
assert kernel.extensions == []
kernel.extensions.append(DefaultIn())
x = x0.copy()
out = np.zeros(n)
kernel[4, 128](cuda.Out(out), x, 7.0)
np.testing.assert_array_equal(out, x0 * 7.0)
np.testing.assert_array_equal(x, x0)  # the extension made it In
assert seen == [("array(float64, 1d, C)", "Out"), ("array(float64, 1d, C)", "ndarray"), ("float64", "float")], seen


class Doubler:
    """Replaces scalar arguments; queues a write-back."""

    def prepare_args(self, ty, val, stream=0, retr=None):
        if isinstance(val, float):
            retr.append(lambda: log.append("written back"))
            return ty, val * 2
        return ty, val


log = []
k2 = cuda.jit(scale_into.py_func, extensions=[Doubler()])
assert len(k2.extensions) == 1
dx, dout = cuda.to_device(x0), cuda.device_array(n)
k2[4, 128](dout, dx, 1.5)
np.testing.assert_array_equal(dout.copy_to_host(), x0 * 3.0)
assert log == ["written back"]
try:
    cuda.jit(extensions=5)(scale_into.py_func)
    raise SystemExit("a non-sequence of extensions was accepted")
except TypeError as err:
    assert str(err) == "cuda.jit(extensions=...) must be a sequence of extensions, not int", str(err)
assert issubclass(cuda.In, ArgHint)
print("hints ok")
