# Where link items come from and how often they are linked: declare_device's
# items follow the function into every kernel and device function that calls
# it, at any depth; legacy @cuda.jit(link=[...]) works on kernels, a bare
# string is one item (not its characters); link= on a device function links
# into its callers; an item reached along several paths is linked once per
# module (a second copy would define every symbol twice).
# stdout: link propagation ok
import os

import numpy as np
from numba import cuda

HERE = os.path.dirname(os.path.abspath(__file__))
CU = os.path.join(HERE, "cu", "ops.cu")
rng = np.random.default_rng(99)
a = rng.integers(-5000, 5000, 100).astype(np.int32)
b = rng.integers(-5000, 5000, 100).astype(np.int32)

# Depth 3: kernel -> d1 -> d2 -> foreign; only the declaration names the file.
iadd = cuda.declare_device("ffi_iadd", "int32(int32, int32)", link=CU)


@cuda.jit(device=True)
def d2(x, y):
    return iadd(x, y)


@cuda.jit(device=True)
def d1(x, y):
    return d2(x, y) + d2(y, 1)


@cuda.jit
def k_depth(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = d1(a[i], b[i])


out = np.zeros(100, np.int32)
k_depth[1, 128](out, a, b)
np.testing.assert_array_equal(out, a + b + b + 1)

# Legacy: the kernel names the file; the declaration has no link items.
bare = cuda.declare_device("ffi_twice_i32", "int32(int32)")


@cuda.jit(link=[CU])
def k_legacy(out, a):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = bare(a[i])


out = np.zeros(100, np.int32)
k_legacy[1, 128](out, a)
np.testing.assert_array_equal(out, 2 * a)


# A bare string is one path.
@cuda.jit(link=CU)
def k_string(out, a):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = bare(a[i]) + 1


out = np.zeros(100, np.int32)
k_string[1, 128](out, a)
np.testing.assert_array_equal(out, 2 * a + 1)


# link= on a device function links into the kernels that call it.
@cuda.jit(device=True, link=[CU])
def dev_with_link(x):
    return bare(x) * 3


@cuda.jit
def k_devlink(out, a):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = dev_with_link(a[i])


out = np.zeros(100, np.int32)
k_devlink[1, 128](out, a)
np.testing.assert_array_equal(out, 6 * a)

# The same file reached five ways (two declarations, the kernel's link, a
# device function's link, the same CUSource object twice): linked once.
src = cuda.CUSource(open(CU).read(), name="ops_mem.cu")
iadd2 = cuda.declare_device("ffi_iadd", "int32(int32, int32)", link=[CU, CU])
fma = cuda.declare_device("ffi_fma3", "float32(float32, float32, float32)", link=CU)
twice_mem = cuda.declare_device("ffi_twice_i32", "int32(int32)", link=src)
twice_mem2 = cuda.declare_device("ffi_twice_i32", "int32(int32)", link=[src])


@cuda.jit(link=[CU, CU])
def k_once(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = iadd2(a[i], b[i]) + iadd(1, 1) + int(fma(1.0, 2.0, 3.0)) + dev_with_link(1)


out = np.zeros(100, np.int32)
k_once[1, 128](out, a, b)
np.testing.assert_array_equal(out, a + b + 2 + 5 + 6)


@cuda.jit
def k_once_mem(out, a):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = twice_mem(a[i]) + twice_mem2(1)


out = np.zeros(100, np.int32)
k_once_mem[1, 128](out, a)
np.testing.assert_array_equal(out, 2 * a + 2)
print("link propagation ok")
