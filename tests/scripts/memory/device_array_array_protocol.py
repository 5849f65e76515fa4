# DeviceNDArray.__array__ (np.asarray / np.array of a device array): a copy
# of the data on the host, in the dtype asked for; NumPy 2's copy=False (no
# copy allowed) is a ValueError with numba-cuda's message, since device
# memory cannot be viewed from the host.
# stdout: array protocol ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(7)
h = rng.standard_normal((3, 5))
d = cuda.to_device(h)
assert np.array_equal(np.asarray(d), h)
assert np.array_equal(d.__array__(copy=True), h)
as32 = d.__array__(dtype=np.float32)
assert as32.dtype == np.float32 and np.array_equal(as32, h.astype(np.float32))
for call in (lambda: d.__array__(copy=False), lambda: d.__array__(None, False)):
    try:
        call()
    except ValueError as e:
        assert str(e) == "`copy=False` is not supported. A copy is always created.", e
    else:
        raise SystemExit("copy=False gave an array")
if int(np.__version__.split(".")[0]) >= 2:  # NumPy 2 passes copy= on to __array__
    try:
        np.array(d, copy=False)
    except ValueError as e:
        assert "`copy=False` is not" in str(e), e
    else:
        raise SystemExit("np.array(copy=False) gave an array")
    assert np.array_equal(np.array(d, copy=True), h)
print("array protocol ok")
