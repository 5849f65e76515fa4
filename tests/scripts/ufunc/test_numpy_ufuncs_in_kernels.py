# NumPy ufuncs called in kernels with an output array (np.sin(x, out),
# np.greater(a, b, out), ...): against NumPy on random data for 1-3-d arrays
# (C and F), scalar inputs, inputs with fewer axes than the output, integer,
# float, complex and mixed signed/unsigned operands, and the errors.
# stdout: numpy ufuncs in kernels ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(9)


@cuda.jit
def k_sin(x, out):
    np.sin(x, out)


@cuda.jit
def k_arctan2(y, x, out):
    np.arctan2(y, x, out)


@cuda.jit
def k_cmp(a, b, gt, le, eq):
    np.greater(a, b, gt)
    np.less_equal(a, b, le)
    np.equal(a, b, eq)


@cuda.jit
def k_minmax(a, b, mx, mn, fmx):
    np.maximum(a, b, mx)
    np.minimum(a, b, mn)
    np.fmax(a, b, fmx)


@cuda.jit
def k_logic(a, b, land, lxor, lnot):
    np.logical_and(a, b, land)
    np.logical_xor(a, b, lxor)
    np.logical_not(a, lnot)


@cuda.jit
def k_bits(a, b, band, inv):
    np.bitwise_and(a, b, band)
    np.invert(a, inv)


@cuda.jit
def k_deg(x, out):
    np.degrees(x, out)


for shape in ((17,), (4, 5), (2, 3, 4)):
    for order in ("C", "F"):
        x = np.asarray(rng.standard_normal(shape), order=order)
        out = np.zeros(shape, order=order)
        k_sin[1, 1](x, out)
        np.testing.assert_allclose(out, np.sin(x), rtol=1e-12)
        x32 = x.astype(np.float32)
        o32 = np.zeros(shape, np.float32)
        k_sin[1, 1](x32, o32)
        np.testing.assert_allclose(o32, np.sin(x32), rtol=1e-5)
        y = rng.standard_normal(shape)
        k_arctan2[1, 1](y, x, out)
        np.testing.assert_allclose(out, np.arctan2(y, x), rtol=1e-12)
        k_deg[1, 1](x, out)
        np.testing.assert_allclose(out, np.degrees(x), rtol=1e-12)

# Scalars broadcast over the output; an input with fewer axes repeats.
out = np.zeros(6)
k_sin[1, 1](0.5, out)
np.testing.assert_allclose(out, np.full(6, np.sin(0.5)))
y = rng.standard_normal(5)
x = rng.standard_normal((3, 5))
o = np.zeros((3, 5))
k_arctan2[1, 1](y, x, o)
np.testing.assert_allclose(o, np.arctan2(y, x), rtol=1e-12)
k_arctan2[1, 1](1.0, x, o)
np.testing.assert_allclose(o, np.arctan2(1.0, x), rtol=1e-12)

# Comparisons, min/max, logical and bitwise ufuncs on several dtypes.
for dt in (np.int32, np.int64, np.uint32, np.float32, np.float64, np.complex128):
    a = (rng.integers(-3, 4, 40) + (1j * rng.integers(-1, 2, 40) if dt == np.complex128 else 0)).astype(dt)
    b = (rng.integers(-3, 4, 40) + (1j * rng.integers(-1, 2, 40) if dt == np.complex128 else 0)).astype(dt)
    gt, le, eq = (np.zeros(40, np.bool_) for _ in range(3))
    k_cmp[1, 1](a, b, gt, le, eq)
    np.testing.assert_array_equal(gt, np.greater(a, b))
    np.testing.assert_array_equal(le, np.less_equal(a, b))
    np.testing.assert_array_equal(eq, np.equal(a, b))
    mx, mn, fmx = (np.zeros(40, dt) for _ in range(3))
    k_minmax[1, 1](a, b, mx, mn, fmx)
    np.testing.assert_array_equal(mx, np.maximum(a, b))
    np.testing.assert_array_equal(mn, np.minimum(a, b))
    np.testing.assert_array_equal(fmx, np.fmax(a, b))
    land, lxor, lnot = (np.zeros(40, np.bool_) for _ in range(3))
    k_logic[1, 1](a, b, land, lxor, lnot)
    np.testing.assert_array_equal(land, np.logical_and(a, b))
    np.testing.assert_array_equal(lxor, np.logical_xor(a, b))
    np.testing.assert_array_equal(lnot, np.logical_not(a))
    if np.dtype(dt).kind in "iu":
        band, inv = np.zeros(40, dt), np.zeros(40, dt)
        k_bits[1, 1](a, b, band, inv)
        np.testing.assert_array_equal(band, np.bitwise_and(a, b))
        np.testing.assert_array_equal(inv, np.invert(a))

# NaN handling of maximum (propagates) and fmax (ignores).
a = np.array([1.0, np.nan, 3.0, np.nan])
b = np.array([np.nan, 2.0, 1.0, np.nan])
mx, mn, fmx = (np.zeros(4) for _ in range(3))
k_minmax[1, 1](a, b, mx, mn, fmx)
np.testing.assert_array_equal(mx, np.maximum(a, b))
np.testing.assert_array_equal(fmx, np.fmax(a, b))


# Errors: the output must be a writable array with at least the inputs' axes.
def expect_error(kernel, args, fragment):
    try:
        kernel[1, 1](*args)
    except Exception as e:
        assert fragment in str(e), (fragment, str(e))
        return
    raise AssertionError("no error: " + fragment)


@cuda.jit
def k_bad_out(x, out):
    np.sin(x, 1.0)


@cuda.jit
def k_bad_count(x, out):
    np.sin(x, out, out)


expect_error(k_bad_out, (np.zeros(3), np.zeros(3)), "the output of np.sin() must be an array")
expect_error(k_bad_count, (np.zeros(3), np.zeros(3)), "np.sin() takes 1 input and one output array")
expect_error(k_sin, (np.zeros((2, 3)), np.zeros(3)), "more than the output's 1")
print("numpy ufuncs in kernels ok")
