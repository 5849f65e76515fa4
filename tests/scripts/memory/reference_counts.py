# The C++ side of DeviceNDArray, streams and events leaves the reference
# counts of what it is given as it found them, on success and on every error
# path: each operation below runs many times and the counts of the host
# arrays, dtypes and streams it touched must not move. The errors are
# numba's, checked by type and message.
# stdout: reference counts ok
import sys

import numpy as np
from numba import cuda

ROUNDS = 500
rng = np.random.default_rng(7)
host = rng.random((4, 6)).astype(np.float32)
out = np.empty((4, 6), dtype=np.float32)
wrong_out = np.empty((3, 6), dtype=np.float32)
wrong_value = np.ones(5, dtype=np.float32)
dtype = host.dtype
f8 = np.dtype(np.float64)
stream = cuda.stream()
d = cuda.to_device(host)


def expect(error, message, fn):
    try:
        fn()
    except error as e:
        assert str(e) == message, (str(e), message)
    else:
        raise AssertionError(f"expected {error.__name__}: {message}")


def successes():
    a = cuda.to_device(host, stream=stream)
    v = a[1:3, ::2]
    assert v.shape == (2, 3)
    assert a[2, 3] == host[2, 3]
    a[0] = host[1]
    a[1, :] = a[2, :]
    a.copy_to_host(out, stream=stream)
    stream.synchronize()
    expected = host.copy()
    expected[0] = host[1]
    expected[1] = host[2]
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(a.reshape(6, 4).copy_to_host(), expected.reshape(6, 4))
    assert a.view(np.int32).dtype == np.int32
    assert a.bind(stream).stream is stream
    assert cuda.as_cuda_array(v).shape == (2, 3)
    assert v.__cuda_array_interface__["shape"] == (2, 3)
    assert [r.shape for r in a[:2]] == [(6,), (6,)]
    np.testing.assert_array_equal(np.asarray(a, dtype=f8), expected.astype(f8))
    e = cuda.event()
    e.record(stream)
    e.synchronize()


def failures():
    expect(IndexError, "index 9 is out of bounds for axis 0 with size 4", lambda: d[9, 0])
    expect(ValueError, "Can't copy sequence with size 5 to array axis 0 with dimension 6",
           lambda: d.__setitem__(0, wrong_value))
    expect(ValueError, "incompatible shape: (4, 6) vs. (3, 6)", lambda: d.copy_to_device(wrong_out))
    expect(ValueError, "incompatible shape: (4, 6) vs. (3, 6)", lambda: d.copy_to_host(wrong_out))
    expect(ValueError, "cannot reshape array of size 24 into the requested shape", lambda: d.reshape(7))
    expect(ValueError, "invalid axes list (0, 0)", lambda: d.transpose((0, 0)))
    expect(ValueError, "cannot select an axis to squeeze out which has size not equal to one",
           lambda: d.squeeze(axis=0))
    expect(ValueError, "When changing to a larger dtype, its size must be a divisor of the total size in bytes "
           "of the last axis of the array.", lambda: d[:, :5].view(f8))
    expect(TypeError, "as_cuda_array: a list does not implement the CUDA Array Interface "
           "(__cuda_array_interface__)", lambda: cuda.as_cuda_array([1, 2]))


for check in (successes, failures):
    check()  # first use: imports and caches settle
    tracked = [host, out, wrong_out, wrong_value, dtype, f8, stream, d]
    before = [sys.getrefcount(o) for o in tracked]
    for _ in range(ROUNDS):
        check()
    after = [sys.getrefcount(o) for o in tracked]
    assert before == after, (check.__name__, before, after)
print("reference counts ok")
