# numba-cuda's implicit synchronization points, observed through the Stream
# object's synchronize() method (which scripts may patch): a[key] = v on an
# array without a stream waits for the copy; on an array bound to a stream, or
# with setitem(..., stream=s), it does not. Consuming a __cuda_array_interface__
# that names a stream (as_cuda_array, a kernel argument) waits on that stream
# unless config.CUDA_ARRAY_INTERFACE_SYNC is off.
# stdout: syncs ok
from unittest.mock import patch

import numpy as np
from numba import cuda
from numba.cuda.core import config

Stream = cuda.cudadrv.driver.Stream
assert Stream is cuda.Stream
rng = np.random.default_rng(3)
host = rng.integers(0, 1000, 16)


def syncs(fn):
    with patch.object(Stream, "synchronize", return_value=None) as mock_sync:
        fn()
    return mock_sync.call_count


d = cuda.to_device(host)
assert syncs(lambda: d.__setitem__(0, 10)) == 1
assert d.copy_to_host()[0] == 10
for s in (cuda.stream(), cuda.default_stream(), cuda.legacy_default_stream(), cuda.per_thread_default_stream()):
    bound = cuda.to_device(host, stream=s)
    assert syncs(lambda: bound.__setitem__(slice(1, 3), -5)) == 0
    assert syncs(lambda: d.setitem(2, 77, stream=s)) == 0
    s.synchronize()
    got = bound.copy_to_host()
    assert (got[1:3] == -5).all() and (got[3:] == host[3:]).all()
    assert d.copy_to_host()[2] == 77


class Foreign:
    """Another producer's array: our memory, a stream handle of its own."""

    def __init__(self, dev, stream):
        self.dev = dev
        self.__cuda_array_interface__ = dict(dev.__cuda_array_interface__, stream=stream)


@cuda.jit
def double(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= 2


src = cuda.to_device(host)
foreign = Foreign(src, 0x5150)  # never reaches the driver: synchronize is patched
assert syncs(lambda: cuda.as_cuda_array(foreign)) == 1
assert syncs(lambda: cuda.as_cuda_array(foreign, sync=False)) == 0
assert syncs(lambda: double[8, 32](foreign)) == 1
assert syncs(lambda: double[8, 32](foreign, )) == 1
np.testing.assert_array_equal(src.copy_to_host(), host * 4)
no_stream = Foreign(src, None)
assert syncs(lambda: cuda.as_cuda_array(no_stream)) == 0
assert syncs(lambda: double[8, 32](no_stream)) == 0
old = config.CUDA_ARRAY_INTERFACE_SYNC
config.CUDA_ARRAY_INTERFACE_SYNC = False
try:
    assert syncs(lambda: cuda.as_cuda_array(foreign)) == 0
    assert syncs(lambda: double[8, 32](foreign)) == 0
finally:
    config.CUDA_ARRAY_INTERFACE_SYNC = old
np.testing.assert_array_equal(src.copy_to_host(), host * 16)
print("syncs ok")
