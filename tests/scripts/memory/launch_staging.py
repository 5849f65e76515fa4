# The launcher's copy-in / copy-back of host NumPy arguments, for contiguous
# and non-contiguous views (numba rejects the latter; cuhost round-trips
# them): the device copy is contiguous (F order kept for F-contiguous
# arrays, as numba's to_device does, else C) and equal to the host data, and
# what the "kernel" writes lands in exactly the viewed elements.
# stdout: staging ok
import numpy as np
import _cuhost

rng = np.random.default_rng(2024)
cases = [
    lambda: rng.standard_normal(50),
    lambda: rng.standard_normal((10, 12))[::3, 1::2],
    lambda: rng.standard_normal((8, 9, 10))[::-2, 3:, ::4],
    lambda: np.asfortranarray(rng.standard_normal((7, 5))),
    lambda: rng.standard_normal((6, 8)).T,
    lambda: rng.integers(-50, 50, size=(9, 9)).astype(np.int16)[::2, ::-3],
    lambda: rng.standard_normal((5, 6)).astype(np.float32)[:, 2],
]
for make in cases:
    host = make()
    base = host.base if host.base is not None else host
    before_base = base.copy()
    expected = host.copy()
    seen = {}

    def kernel(dev):
        fortran = host.flags.f_contiguous and not host.flags.c_contiguous
        assert (dev.is_f_contiguous() if fortran else dev.is_c_contiguous()), host.strides
        assert dev.shape == host.shape and dev.dtype == host.dtype
        seen["in"] = dev.copy_to_host()
        dev[...] = dev.copy_to_host() * 2 + 1

    dev = _cuhost._roundtrip_for_test(host, kernel)
    assert np.array_equal(seen["in"], expected)
    assert np.array_equal(host, expected * 2 + 1), "copy-back into the view"
    # Elements outside the view are untouched: restoring the view restores the base.
    host[...] = expected
    assert np.array_equal(base, before_base), "only the viewed elements changed"

# Read-only host arrays are copied in and not written back.
ro = rng.standard_normal(10)
ro.flags.writeable = False
snapshot = ro.copy()
_cuhost._roundtrip_for_test(ro, lambda dev: dev.__setitem__(Ellipsis, 0.0))
assert np.array_equal(ro, snapshot)
print("staging ok")
