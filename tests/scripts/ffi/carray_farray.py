# numba's carray/farray (numba.cuda.np.numpy_support) in kernels: a C- or
# F-ordered array over the memory a typed pointer points to, the shape an
# int or a tuple known at run time; writes go to that memory; a dtype= that
# is not the pointer's is a typing error (numba's message). On the host they
# are numba's NumPy views over a ctypes pointer, checked against NumPy.
# stdout: carray ok
import numpy as np
from numba import cuda, types
from numba.cuda.np.numpy_support import carray, farray

@cuda.jit(types.void(types.CPointer(types.float32)))
def add(a_ptr):
    a = carray(a_ptr, (1,), dtype=cuda.float32)
    a[0] += 1.2

a = cuda.to_device(np.array([0.0], dtype=np.float32))
add[1, 1](int(a.gpu_data.device_pointer))
assert np.float32(1.2) == a.copy_to_host()[0], a.copy_to_host()

@cuda.jit(types.void(types.CPointer(types.float64), types.int64, types.int64, types.float64[:, :], types.float64[:, :]))
def views(p, n, m, outc, outf):
    c = carray(p, (n, m))
    f = farray(p, (n, m))
    for i in range(n):
        for j in range(m):
            outc[i, j] = c[i, j]
            outf[i, j] = f[i, j]

rng = np.random.default_rng(2)
h = rng.standard_normal(12)
d = cuda.to_device(h)
oc = np.zeros((3, 4)); of = np.zeros((3, 4))
views[1, 1](d.device_ctypes_pointer.value, 3, 4, oc, of)
assert np.array_equal(oc, h.reshape((3, 4))), oc
assert np.array_equal(of, h.reshape((3, 4), order="F")), of
try:
    @cuda.jit(types.void(types.CPointer(types.float32)))
    def bad(p):
        a = carray(p, 4, dtype=np.float64)
        a[0] = 1
except Exception as e:
    assert type(e).__name__ == "TypingError" and "mismatching dtype 'float64' for pointer" in str(e), e
else:
    raise SystemExit("a mismatching dtype compiled")
# On the host: views over the memory of a ctypes pointer (writes show).
import ctypes

buf = rng.standard_normal(12)
p = buf.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
c = carray(p, (3, 4))
f = farray(p, (3, 4))
assert c.dtype == np.float64 and np.array_equal(c, buf.reshape((3, 4)))
assert np.array_equal(f, buf.reshape((3, 4), order="F")) and f.flags.f_contiguous
c[1, 2] = 42.0
assert buf[6] == 42.0
v = carray(ctypes.c_void_p(buf.ctypes.data), 12, dtype=np.float64)
assert np.array_equal(v, buf)
for bad, kind in ((lambda: carray(p, 3, dtype=np.float32), "mismatching dtype"),
                  (lambda: carray(ctypes.c_void_p(buf.ctypes.data), 3), "explicit dtype required")):
    try:
        bad()
    except TypeError as e:
        assert kind in str(e), e
    else:
        raise SystemExit("no TypeError for " + kind)
print("carray ok")
