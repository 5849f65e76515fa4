# numba's carray/farray (numba.cuda.np.numpy_support) in kernels: a C- or
# F-ordered array over the memory a typed pointer points to, the shape an
# int or a tuple known at run time; writes go to that memory; a dtype= that
# is not the pointer's is a typing error (numba's message).
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
print("carray ok")
