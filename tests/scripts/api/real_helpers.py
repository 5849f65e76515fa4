# The pure-data and pure-Python parts of numba-cuda's layout that cuhost
# implements for real: dtype conversion, typeof, signatures, utils, the
# toolkit version, the device-array helpers, and libdevice functions
# imported from numba.cuda.libdevice working inside a kernel.
# stdout: real helpers ok
import math
import sys

import numpy as np

from numba import cuda
from numba.cuda import types, libdevice
from numba.cuda.np import numpy_support
from numba.cuda.typing import signature
from numba.cuda.typing.typeof import typeof
from numba.cuda.utils import PYVERSION, _readenv, bit_length
from numba.cuda.cudadrv import runtime, devicearray, nvvm
from numba.cuda.random import xoroshiro128p_dtype

assert numpy_support.from_dtype(np.float32) is types.float32
assert numpy_support.from_dtype(np.dtype("int16")) is types.int16
assert numpy_support.from_dtype(np.dtype(">f8")) is types.float64
assert numpy_support.as_dtype(types.uint8) == np.dtype(np.uint8)
assert numpy_support.as_dtype(types.boolean) == np.dtype(bool)
rec = numpy_support.from_dtype(np.dtype([("a", np.int32), ("b", np.float64)], align=True))
assert str(rec) == "Record(a[type=int32;offset=0],b[type=float64;offset=8];16;True)", rec
assert numpy_support.as_dtype(rec) == np.dtype([("a", np.int32), ("b", np.float64)], align=True)
assert numpy_support.from_dtype(np.dtype("M8[s]")) == types.NPDatetime("s")
for bad in (np.dtype(object), np.dtype("V8")):
    try:
        numpy_support.from_dtype(bad)
        raise AssertionError(bad)
    except NotImplementedError as e:
        assert "from_dtype" in str(e), str(e)

assert typeof(np.float32(1)) == types.float32 and typeof(1.5) == types.float64
assert str(typeof(np.zeros((2, 3), np.float32))) == "array(float32, 2d, C)", typeof(np.zeros((2, 3), np.float32))
try:
    typeof(object())
    raise AssertionError("typeof(object())")
except ValueError:
    pass

sig = signature(types.float32, types.int32, types.float64)
assert sig == types.float32(types.int32, types.float64) and sig.args == (types.int32, types.float64)

assert PYVERSION == sys.version_info[:2]
assert _readenv("CUHOST_TEST_UNSET_VARIABLE", int, 7) == 7
assert bit_length(255) == 8 and bit_length(-129) == 8
assert types.longlong is types.int64 and types.float32 in types.real_domain
assert types.uint16 in types.unsigned_domain and types.int8 not in types.unsigned_domain

major, minor = runtime.get_version()
assert major >= 12 and runtime.runtime.is_supported_version()
assert xoroshiro128p_dtype.itemsize == 16 and xoroshiro128p_dtype.names == ("s0", "s1")
assert nvvm.is_available() is False  # cuhost compiles without NVVM
assert cuda.is_float16_supported() is True  # every target has float16

d = cuda.to_device(np.arange(4.0))
assert devicearray.is_cuda_ndarray(d) and not devicearray.is_cuda_ndarray(np.arange(4.0))
same, converted = devicearray.auto_device(d)
assert same is d and converted is False
new, converted = devicearray.auto_device(np.arange(3.0))
assert converted is True and np.array_equal(new.copy_to_host(), np.arange(3.0))

# libdevice: the module is cuda.libdevice; its functions are device-only on the host ...
assert cuda.libdevice is libdevice
try:
    libdevice.sinf(1.0)
    raise AssertionError("libdevice on the host")
except TypeError as e:
    assert "inside a kernel" in str(e), str(e)

from numba.cuda.libdevice import sinf, hypot  # noqa: E402


# ... and compile inside kernels, by attribute or imported by name.
@cuda.jit
def k(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = sinf(x[i]) + cuda.libdevice.cosf(x[i]) + hypot(3.0, 4.0)


x = np.linspace(0, 1, 64).astype(np.float32)
out = np.zeros_like(x)
k[1, 64](out, x)
assert np.allclose(out, np.sin(x) + np.cos(x) + 5.0, atol=1e-5), out[:4]
assert math.isclose(float(out[0]), 1.0 + 5.0, rel_tol=1e-6)
print("real helpers ok")
