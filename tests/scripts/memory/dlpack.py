# DLPack capsules are device arrays for launches with no copy: on the CPU
# backend a CPU tensor (numpy's __dlpack__) is seen in place, strides and
# all; unusable capsules give clear errors.
# backends: cpu
# stdout: dlpack ok
import numpy as np
import _cuhost

rng = np.random.default_rng(17)
a = rng.standard_normal((5, 8))
v = _cuhost._array_view_for_test(a.__dlpack__())
assert v["where"] == "device" and v["data"] == a.ctypes.data and v["type"] == "array(float64, 2d, C)", v
assert v["shape"] == (5, 8) and v["strides"] == (64, 8)
s = a[1::2, ::-3]
vs = _cuhost._array_view_for_test(s.__dlpack__())
assert vs["data"] == s.ctypes.data and vs["strides"] == s.strides and vs["shape"] == s.shape and vs["layout"] == "A"
for dt, name in [(np.int8, "int8"), (np.uint32, "uint32"), (np.float16, "float16"), (np.float32, "float32"),
                 (np.complex64, "complex64")]:
    x = np.zeros(3, dt)
    assert _cuhost._array_view_for_test(x.__dlpack__())["dtype"] == name, dt
f = np.asfortranarray(rng.standard_normal((3, 4)).astype(np.float32))
assert _cuhost._array_view_for_test(f.__dlpack__())["layout"] == "F"
import ctypes
other = ctypes.pythonapi.PyCapsule_New
other.restype = ctypes.py_object
other.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
try:
    _cuhost._array_view_for_test(other(ctypes.c_void_p(8), b"not_dlpack", None))
    raise SystemExit("foreign capsule accepted")
except TypeError as err:
    assert str(err) == "not a DLPack capsule (expected a PyCapsule named 'dltensor')"
print("dlpack ok")
