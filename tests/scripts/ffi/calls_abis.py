# Kernels calling foreign functions (cu/ops.cu) with both ABIs: the function
# reached as a global and as a closure variable, numba's implicit argument
# conversions (int64 -> int32, float64 -> float32, bool -> int), C-ABI void
# returns and booleans, numba-ABI void results. Checked against NumPy on
# random data.
# stdout: calls abis ok
import os

import numpy as np
from numba import cuda, types

CU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cu", "ops.cu")
fma3 = cuda.declare_device("ffi_fma3", "float32(float32, float32, float32)", link=CU)
iadd = cuda.declare_device("ffi_iadd", "int32(int32, int32)", link=CU)
twice = cuda.declare_device("ffi_twice_i32", "int32(int32)", link=CU)
store_n = cuda.declare_device("ffi_store_numba", "void(CPointer(int32), int32, int32)", link=CU)
hypot2 = cuda.declare_device("ffi_hypot2", "float64(float64, float64)", link=CU, abi="c")
store_c = cuda.declare_device("ffi_store_c", types.void(types.CPointer(types.int32), types.int32, types.int32), link=CU, abi="c")
is_odd = cuda.declare_device("ffi_is_odd", "boolean(int32)", link=CU, abi="c")
rng = np.random.default_rng(2024)


# Global use, numba ABI.
@cuda.jit
def k_fma(out, a, b, c):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = fma3(a[i], b[i], c[i])


a, b, c = (rng.standard_normal(777).astype(np.float32) for _ in range(3))
out = np.zeros_like(a)
k_fma[7, 128](out, a, b, c)
np.testing.assert_allclose(out, a * b + c, rtol=1e-5, atol=1e-6)


# Closure use: the declaration is a local of the enclosing function.
def make_kernel():
    local_add = cuda.declare_device("ffi_iadd", "int32(int32, int32)", link=CU)

    @cuda.jit
    def k(out, x, y):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = local_add(x[i], y[i])
    return k


x = rng.integers(-1000, 1000, 500).astype(np.int32)
y = rng.integers(-1000, 1000, 500).astype(np.int32)
o = np.zeros_like(x)
make_kernel()[4, 128](o, x, y)
np.testing.assert_array_equal(o, x + y)


# Implicit conversions: int64 -> int32, float64 -> float32, bool -> int.
@cuda.jit
def k_conv(out_i, out_f, xs64, fs64, flags):
    i = cuda.grid(1)
    if i < xs64.size:
        out_i[i, 0] = twice(xs64[i])            # int64 element -> int32 parameter
        out_i[i, 1] = iadd(flags[i], 10)        # bool -> int32
        out_i[i, 2] = twice(i)                  # the grid index (int64) -> int32
        out_f[i] = fma3(fs64[i], 2.0, 0.5)      # float64 -> float32, literals too


xs64 = rng.integers(-2**20, 2**20, 300).astype(np.int64)
fs64 = rng.standard_normal(300)
flags = rng.random(300) < 0.5
oi = np.zeros((300, 3), np.int32)
of = np.zeros(300, np.float32)
k_conv[3, 128](oi, of, xs64, fs64, flags)
np.testing.assert_array_equal(oi[:, 0], 2 * xs64)
np.testing.assert_array_equal(oi[:, 1], flags.astype(np.int32) + 10)
np.testing.assert_array_equal(oi[:, 2], 2 * np.arange(300))
np.testing.assert_allclose(of, fs64.astype(np.float32) * 2 + 0.5, rtol=1e-6)

# int64 -> int32 wraps like numba's truncation.
big = np.array([2**31 + 5, -(2**31) - 7, 2**40 + 3], np.int64)
ob = np.zeros((3, 3), np.int32)
k_conv[1, 3](ob, np.zeros(3, np.float32), big, np.zeros(3), np.zeros(3, np.bool_))
np.testing.assert_array_equal(ob[:, 0], (2 * big.astype(np.int32)).astype(np.int32))

try:
    import cffi
    ffi = cffi.FFI()
except ImportError:
    ffi = cuda.ffi


# C ABI: double result, real void return, boolean result; numba ABI void.
@cuda.jit
def k_c(out_d, out_void_c, out_void_n, out_b, xs, ys, ints):
    i = cuda.grid(1)
    if i < xs.size:
        out_d[i] = hypot2(xs[i], ys[i])
        store_c(ffi.from_buffer(out_void_c), i, ints[i] * 3)
        store_n(ffi.from_buffer(out_void_n), i, ints[i] - 1)
        out_b[i] = is_odd(ints[i])


xs = rng.standard_normal(200)
ys = rng.standard_normal(200)
ints = rng.integers(-5000, 5000, 200).astype(np.int32)
od = np.zeros(200)
ovc = np.zeros(200, np.int32)
ovn = np.zeros(200, np.int32)
obool = np.zeros(200, np.bool_)
k_c[2, 128](od, ovc, ovn, obool, xs, ys, ints)
np.testing.assert_allclose(od, xs * xs + ys * ys, rtol=1e-12)
np.testing.assert_array_equal(ovc, ints * 3)
np.testing.assert_array_equal(ovn, ints - 1)
np.testing.assert_array_equal(obool, (ints & 1) == 1)
print("calls abis ok")
