# Array methods and attributes in kernels: a.view(dtype) (same item size,
# smaller and larger item sizes, numba's ValueErrors for a non-contiguous
# last axis and a ragged byte length), a.copy() of global, const and local
# arrays (C-ordered copies, also of F-ordered and reversed globals; a
# runtime-shaped array is refused at compile time), a.ctypes.data, and
# a.real / a.imag of complex arrays as writable views (atomics on them too).
# stdout: array methods ok
import numpy as np
from numba import cuda
from numba.cuda.core.errors import UnsupportedError

rng = np.random.default_rng(4)


@cuda.jit
def views(raw, out_i32, out_u16, floats, out_bits):
    i = cuda.grid(1)
    if i < out_i32.size:
        out_i32[i] = raw[4 * i:4 * i + 4].view(np.int32)[0]
    w = raw.view(np.uint16)
    if i < w.size:
        out_u16[i] = w[i]
    if i < floats.size:
        out_bits[i] = floats.view(np.uint32)[i]


raw = rng.integers(0, 256, 64).astype(np.uint8)
floats = rng.standard_normal(32).astype(np.float32)
out_i32, out_u16, out_bits = np.zeros(16, np.int32), np.zeros(32, np.uint16), np.zeros(32, np.uint32)
views[1, 32](raw, out_i32, out_u16, floats, out_bits)
assert np.array_equal(out_i32, raw.view(np.int32))
assert np.array_equal(out_u16, raw.view(np.uint16))
assert np.array_equal(out_bits, floats.view(np.uint32))


@cuda.jit(debug=True, opt=False)
def bad_view(a, out):
    out[0] = a.view(np.int32)[0]


# A device array's strided view stays strided on both backends (a host array
# reaches a GPU kernel as a contiguous copy).
for arr, message in ((cuda.to_device(np.arange(12, dtype=np.uint8))[::2], "the last axis must be contiguous"),
                     (np.arange(6, dtype=np.uint8), "must be a divisor of the total size in bytes")):
    try:
        bad_view[1, 1](arr, np.zeros(1, np.int32))
    except ValueError as e:
        assert message in str(e), str(e)
    else:
        raise AssertionError("no ValueError for " + message)

GLOBAL = np.array([3.0, 1.0, 4.0, 1.5])[::-1]
FORDER = np.asfortranarray(np.arange(6, dtype=np.int16).reshape(2, 3))


@cuda.jit
def copies(out, addresses):
    i = cuda.grid(1)
    q = GLOBAL.copy()
    q[0] += i  # a private copy per thread
    f = FORDER.copy()
    loc = cuda.local.array((2, 2), np.float32)
    for r in range(2):
        for c in range(2):
            loc[r, c] = r * 10 + c + i
    lc = loc.copy()
    loc[0, 0] = -1
    out[i, 0] = q[0]
    out[i, 1] = q[3]
    out[i, 2] = f[1, 0] * 10 + f[0, 2]
    out[i, 3] = lc[0, 0] + lc[1, 1]
    out[i, 4] = f.strides[0]
    addresses[i, 0] = q.ctypes.data
    addresses[i, 1] = loc.ctypes.data


out = np.zeros((4, 5))
addresses = np.zeros((4, 2), np.uint64)
copies[1, 4](out, addresses)
for i in range(4):
    assert list(out[i]) == [GLOBAL[0] + i, GLOBAL[3], FORDER[1, 0] * 10 + FORDER[0, 2], (0 + i) + (11 + i), 6], out[i]
    assert addresses[i, 0] % 8 == 0 and addresses[i, 1] % 4 == 0 and addresses[i, 0] != 0


def copy_runtime_shape(a, out):
    out[0] = a.copy()[0]


try:
    cuda.jit(copy_runtime_shape)[1, 1](np.ones(3), np.zeros(1))
except UnsupportedError as e:
    assert "shape is known at compile time" in str(e), str(e)
else:
    raise AssertionError("copy() of a runtime-shaped array")


@cuda.jit
def parts(z, re, im):
    i = cuda.grid(1)
    if i < z.shape[0]:
        re[i] = z.real[i]
        im[i] = z.imag[i]
        z.imag[i] = -z.imag[i]
        cuda.atomic.add(z.real, i, 1.0)


z = (rng.standard_normal(40) + 1j * rng.standard_normal(40)).astype(np.complex64)
z0 = z.copy()
re, im = np.zeros(40, np.float32), np.zeros(40, np.float32)
parts[1, 40](z, re, im)
assert np.array_equal(re, z0.real) and np.array_equal(im, z0.imag)
assert np.array_equal(z, (z0.real + 1) - 1j * z0.imag), (z[:3], z0[:3])
print("array methods ok")
