# bfloat16 arrays from other libraries reach kernels without a copy, by the
# two routes CuPy and PyTorch take: a __cuda_array_interface__ whose typestr
# is opaque ('<V2', what CuPy exports for ml_dtypes' bfloat16) beside the
# producer's own dtype, and DLPack (kDLBfloat, 16 bits) from a producer whose
# __cuda_array_interface__ refuses bfloat16 with a TypeError (PyTorch's).
# The producers here export exactly those protocols over cuhost memory;
# results are checked against ml_dtypes on random data, writes through a
# view included. An opaque typestr with nothing to say what it is stays an
# error.
# stdout: bf16 interop ok
import ctypes

import numpy as np
from numba import cuda

try:
    import ml_dtypes
except ImportError:
    raise SystemExit(77)

BF16 = np.dtype(ml_dtypes.bfloat16)
ON_GPU = cuda.backend() == "cuda"


def address(dev):
    return dev.__cuda_array_interface__["data"][0]


class CupyLike:
    """CuPy >= 14's export of a bfloat16 array: typestr '<V2', dtype bfloat16."""

    def __init__(self, dev, dtype=BF16):
        self.dev, self.dtype, self.shape = dev, dtype, dev.shape

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": "<V2", "descr": [("", "<V2")], "data": (address(self.dev), False),
                "strides": None, "version": 3, "stream": None}


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype = ctypes.py_object
capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class TorchLike:
    """PyTorch's bfloat16 tensor as far as kernels see it: the interface
    refuses the dtype, DLPack exports it (elements strided by `step`)."""

    def __init__(self, dev, count, step=1):
        self.dev = dev
        self.shape = (ctypes.c_int64 * 1)(count)
        self.strides = (ctypes.c_int64 * 1)(step)
        self.managed = DLManagedTensor()  # owned here: the capsule has no deleter
        t = self.managed.dl_tensor
        t.data = address(dev)
        t.device = DLDevice(2 if ON_GPU else 1, 0)  # kDLCUDA / kDLCPU
        t.ndim = 1
        t.dtype = DLDataType(4, 16, 1)  # kDLBfloat
        t.shape = self.shape
        t.strides = self.strides
        t.byte_offset = 0

    @property
    def __cuda_array_interface__(self):
        raise TypeError("dtype torch.bfloat16 is not supported by __cuda_array_interface__")

    def __dlpack__(self, stream=None):
        return capsule_new(ctypes.addressof(self.managed), b"dltensor", None)

    def __dlpack_device__(self):
        return (2 if ON_GPU else 1, 0)


@cuda.jit
def affine(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = 2 * a[i] + 4 * b[i] + ml_dtypes.bfloat16(3.0)


rng = np.random.default_rng(23)
n = 300
a_h = rng.integers(-30, 30, n).astype(BF16)
b_h = rng.integers(-20, 20, n)
expect = (2 * a_h.astype(np.float64) + 4 * b_h + 3).astype(BF16)

# CuPy-like input and output, an int64 device array beside them.
a_d, out_d = cuda.to_device(a_h), cuda.device_array(n, BF16)
b_d = cuda.to_device(b_h)
affine[(n + 127) // 128, 128](CupyLike(a_d), b_d, CupyLike(out_d))
np.testing.assert_array_equal(out_d.copy_to_host().astype(np.float32), expect.astype(np.float32))

# PyTorch-like (DLPack) input and output; the output written every other element.
wide = cuda.to_device(np.zeros(2 * n, BF16))
affine[(n + 127) // 128, 128](TorchLike(a_d, n), b_d, TorchLike(wide, n, step=2))
got = wide.copy_to_host()
np.testing.assert_array_equal(got[::2].astype(np.float32), expect.astype(np.float32))
assert not got[1::2].astype(np.float32).any()

# An opaque 2-byte typestr whose producer says nothing more is refused.
try:
    affine[1, 32](CupyLike(a_d, dtype=None), b_d, CupyLike(out_d))
except TypeError as e:
    assert "arrays of typestr '<V2' cannot be passed to kernels" in str(e), str(e)
else:
    raise AssertionError("an opaque typestr was accepted")
print("bf16 interop ok")
