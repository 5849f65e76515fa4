# __cuda_array_interface__ (v3) of DeviceNDArray, zero-copy as_cuda_array of
# any exporter, is_cuda_array, malformed interfaces, and what the launcher
# sees for device and host arguments.
# stdout: interface ok
# stdout: numba paths ok
import numpy as np
from numba import cuda
import _cuhost

rng = np.random.default_rng(7)
a = rng.standard_normal((5, 6)).astype(np.float32)
d = cuda.to_device(a)
cai = d.__cuda_array_interface__
assert set(cai) == {"shape", "strides", "data", "typestr", "version", "stream"}, cai
assert cai["shape"] == (5, 6) and cai["strides"] is None and cai["typestr"] == "<f4" and cai["version"] == 3
assert cai["data"] == (d.device_pointer, False) and cai["stream"] is None
v = d[1:, ::2]
vcai = v.__cuda_array_interface__
assert vcai["strides"] == (24, 8) and vcai["shape"] == (4, 3)
assert vcai["data"][0] == d.device_pointer + 24
assert cuda.to_device(np.zeros(3, np.bool_)).__cuda_array_interface__["typestr"] == "|b1"
assert cuda.to_device(np.zeros(3, np.int64)).__cuda_array_interface__["typestr"] == "<i8"

# as_cuda_array is zero-copy: writes through one view show in the other.
w = cuda.as_cuda_array(v)
assert isinstance(w, cuda.DeviceNDArray) and w.shape == v.shape and w.strides == v.strides
w[0, 0] = 123.0
assert d[1, 0] == np.float32(123.0)
d[2, 2] = -7.0
assert w[1, 1] == np.float32(-7.0)


class Exporter:
    """A foreign array (like CuPy's) exporting device memory through the interface."""

    def __init__(self, owner, **override):
        self.owner = owner
        self.override = override

    @property
    def __cuda_array_interface__(self):
        base = dict(self.owner.__cuda_array_interface__)
        base.update(self.override)
        return base


owner = cuda.to_device(rng.integers(0, 100, size=(4, 4)).astype(np.int32))
x = cuda.as_cuda_array(Exporter(owner))
assert x.dtype == np.int32 and x.shape == (4, 4)
assert np.array_equal(x.copy_to_host(), owner.copy_to_host())
x[3] = 77
assert list(owner[3].copy_to_host()) == [77] * 4
# Strided exporters: a column view through explicit strides.
col = cuda.as_cuda_array(Exporter(owner, shape=(4,), strides=(16,)))
assert np.array_equal(col.copy_to_host(), owner.copy_to_host()[:, 0])
# The view keeps the exporter alive.
ex = Exporter(cuda.to_device(np.arange(5.0)))
y = cuda.as_cuda_array(ex)
del ex
assert list(y.copy_to_host()) == [0.0, 1.0, 2.0, 3.0, 4.0]

assert cuda.is_cuda_array(d) and cuda.is_cuda_array(Exporter(owner))
assert not cuda.is_cuda_array(a) and not cuda.is_cuda_array(3)
try:
    cuda.as_cuda_array(a)
    raise SystemExit("numpy array accepted by as_cuda_array")
except TypeError as err:
    assert str(err) == ("as_cuda_array: a numpy.ndarray does not implement the CUDA Array Interface "
                        "(__cuda_array_interface__)"), str(err)

bad = [({"shape": None}, "malformed __cuda_array_interface__: 'shape' must be a tuple of ints, not NoneType"),
       ({"shape": (2, "x")}, "malformed __cuda_array_interface__: 'shape' must hold ints, found str"),
       ({"typestr": 5}, "malformed __cuda_array_interface__: 'typestr' must be a str such as '<f4'"),
       ({"data": 5}, "malformed __cuda_array_interface__: 'data' must be a tuple (pointer: int, read_only: bool)"),
       ({"strides": (4,)}, "malformed __cuda_array_interface__: 'strides' and 'shape' have different lengths"),
       ({"stream": 0}, "malformed __cuda_array_interface__: 'stream' 0 is disallowed by the interface (use None)"),
       ({"version": None}, "malformed __cuda_array_interface__: missing integer 'version'")]
for override, msg in bad:
    try:
        cuda.as_cuda_array(Exporter(owner, **override))
        raise SystemExit("malformed interface accepted: %r" % (override,))
    except TypeError as err:
        assert str(err) == msg, (str(err), msg)
    try:
        _cuhost._array_view_for_test(Exporter(owner, **override))
        raise SystemExit("malformed interface accepted by the launcher view: %r" % (override,))
    except TypeError as err:
        assert str(err) == msg, (str(err), msg)
try:
    cuda.as_cuda_array(Exporter(owner, mask=(1,)))
    raise SystemExit("masked interface accepted")
except NotImplementedError as err:
    assert "mask" in str(err)

# An exporter whose interface property fails: its error comes through unchanged.
class Broken:
    @property
    def __cuda_array_interface__(self):
        raise RuntimeError("device lost")


for fn in (cuda.as_cuda_array, _cuhost._array_view_for_test):
    try:
        fn(Broken())
        raise SystemExit("failing interface property ignored")
    except RuntimeError as err:
        assert str(err) == "device lost"

# What the launcher sees.
view = _cuhost._array_view_for_test(d)
assert view["where"] == "device" and view["type"] == "array(float32, 2d, C)" and view["data"] == d.device_pointer
assert _cuhost._array_view_for_test(v)["type"] == "array(float32, 2d, A)"
dT = cuda.cudadrv.devicearray.DeviceNDArray(d.shape[::-1], d.strides[::-1], d.dtype, gpu_data=d.gpu_data)
assert _cuhost._array_view_for_test(dT)["type"] == "array(float32, 2d, F)"
assert _cuhost._array_view_for_test(Exporter(owner))["type"] == "array(int32, 2d, C)"
ro = _cuhost._array_view_for_test(Exporter(owner, data=(owner.device_pointer, True)))
assert ro["readonly"] is True and ro["type"] == "readonly array(int32, 2d, C)", ro
rov = cuda.as_cuda_array(Exporter(owner, data=(owner.device_pointer, True)))
assert rov.__cuda_array_interface__["data"] == (owner.device_pointer, True)
try:
    rov[0, 0] = 1
    raise SystemExit("write into a read-only view accepted")
except ValueError as err:
    assert str(err) == "assignment destination is read-only"
h = rng.standard_normal((4, 6))
hv = _cuhost._array_view_for_test(h)
assert hv["where"] == "host" and hv["type"] == "array(float64, 2d, C)" and hv["data"] == h.ctypes.data
assert _cuhost._array_view_for_test(np.asfortranarray(h))["layout"] == "F"
assert _cuhost._array_view_for_test(h[:, ::2])["layout"] == "A"
assert _cuhost._array_view_for_test(h[:1, :])["layout"] == "C"  # numpy's rules: size-1 axes do not count
assert np.zeros((2, 3)).T[:, :1].flags["C_CONTIGUOUS"]
assert _cuhost._array_view_for_test(np.zeros((2, 3)).T[:, :1])["layout"] == "C"
assert _cuhost._array_view_for_test(3.0) is None and _cuhost._array_view_for_test([1, 2]) is None
print("interface ok")

# numba's module paths lead to the same classes.
from numba.cuda.cudadrv.devicearray import DeviceNDArray as NumbaDeviceNDArray
from numba.cuda.cudadrv.driver import Stream as NumbaStream, CudaAPIError
from numba.cuda.cudadrv.error import CudaSupportError
import numba.cuda.cudadrv.devicearray as devicearray_module
assert NumbaDeviceNDArray is cuda.DeviceNDArray and isinstance(d, NumbaDeviceNDArray)
assert NumbaStream is cuda.Stream and CudaAPIError is cuda.CudaAPIError and CudaSupportError is cuda.CudaSupportError
assert devicearray_module.is_cuda_ndarray(d) and not devicearray_module.is_cuda_ndarray(a)
assert cuda.cudadrv.devicearray.DeviceNDArray is cuda.DeviceNDArray
print("numba paths ok")
