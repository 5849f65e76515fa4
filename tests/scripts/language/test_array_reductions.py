# Whole-array reductions in kernels: np.sum prod mean var std min max amin
# amax all any nanmin nanmax nanmean nansum nanprod count_nonzero and the
# methods a.sum() ... a.any(), on arrays of bool, int8..uint64, float32,
# float64 and complex of 1 to 3 dimensions in C, F and strided layouts, with
# NaNs, infinities and signed zeros. Results are checked bit for bit against
# a Python model of numba's algorithms (sequential accumulation in C order
# in numba's accumulator types) and within rounding against NumPy; min/max
# of an empty array raise ValueError with debug=True; literal_unroll over a
# tuple of arrays of different dimensions.
# stdout: reductions ok
# timeout: 600
import math

import numpy as np
from numba import cuda
from numba.cuda.misc.special import literal_unroll

rng = np.random.default_rng(11)


def acc_type(dt):
    if dt == np.bool_ or np.issubdtype(dt, np.signedinteger):
        return np.int64
    if np.issubdtype(dt, np.unsignedinteger):
        return np.uint64
    return dt.type


def model(op, a):
    """numba's arraymath algorithms, element by element in C order."""
    flat = list(np.ascontiguousarray(a).ravel())
    dt = a.dtype
    exact = dt == np.bool_ or np.issubdtype(dt, np.integer)
    is_nan = (lambda v: False) if exact else (lambda v: np.isnan(v))
    with np.errstate(all="ignore"):
        if op in ("sum", "prod", "nansum", "nanprod"):
            t = np.int64 if op.startswith("nan") and exact else acc_type(dt)
            c = t(1 if "prod" in op else 0)
            for v in flat:
                if op.startswith("nan") and is_nan(v):
                    continue
                c = t(c * t(v)) if "prod" in op else t(c + t(v))
            return c
        if op in ("mean", "var", "std"):
            acc = np.float64 if exact else dt.type
            c = acc(0)
            for v in flat:
                c = acc(c + acc(v))
            out_t = np.complex128 if np.issubdtype(dt, np.complexfloating) else np.float64
            # numba divides as Python's complex quotient (CPython's algorithm).
            m = out_t(complex(c) / len(flat)) if out_t == np.complex128 else out_t(c) / out_t(len(flat))
            if op == "mean":
                return m
            ssd = np.float64(0)
            for v in flat:
                val = out_t(v) - m
                ssd = ssd + np.float64((val * np.conj(val)).real)
            var = ssd / np.float64(len(flat))
            return var if op == "var" else np.sqrt(var)
        if op == "nanmean":
            out_t = np.complex128 if np.issubdtype(dt, np.complexfloating) else np.float64
            c, n = out_t(0), 0
            for v in flat:
                if not is_nan(v):
                    c = out_t(c + out_t(v))
                    n += 1
            return np.divide(c, out_t(n)) if n else np.divide(c, 0)
        if op in ("all", "any"):
            return np.bool_(all(bool(v) for v in flat) if op == "all" else any(bool(v) for v in flat))
        if op == "count_nonzero":
            return np.int64(sum(1 for v in flat if v != 0))
        if op in ("min", "max"):
            r = flat[0]
            if is_nan(r):
                return r
            for v in flat[1:]:
                if is_nan(v):
                    return v
                if (v < r) if op == "min" else (v > r):
                    r = v
            return r
        r = flat[0]  # nanmin / nanmax
        for v in flat[1:]:
            if not is_nan(v) and not ((r < v) if op == "nanmin" else (r > v)):
                r = v
        return r


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype:
        return False
    if np.issubdtype(got.dtype, np.inexact):
        if got.tobytes() == want.tobytes() or (np.isnan(got).all() and np.isnan(want).all()):
            return True
        # Bit for bit on the CPU backend; a GPU contracts multiply-adds into
        # fma (as numba-cuda's NVVM does), a few ulps away.
        return cuda.backend() == "cuda" and bool(np.isclose(got, want, rtol=8 * np.finfo(got.dtype).eps, atol=0))
    return got == want


OPS = ["sum", "prod", "mean", "var", "std", "min", "max", "all", "any", "nanmin", "nanmax", "nanmean", "nansum",
       "nanprod", "count_nonzero", "amin", "amax"]
METHODS = ["sum", "prod", "mean", "var", "std", "min", "max", "all", "any"]
DTYPES = [np.bool_, np.int8, np.uint64, np.float32, np.float64, np.complex64]
ORDERED = ("min", "max", "nanmin", "nanmax", "amin", "amax")


def calls_for(dtype):
    """(name, kernel expression) of every reduction that applies to the dtype."""
    out = []
    for op in OPS + ["m." + m for m in METHODS]:
        name = op[2:] if op.startswith("m.") else op
        if name in ORDERED and np.issubdtype(dtype, np.complexfloating):
            continue
        out.append((name, "a.%s()" % name if op.startswith("m.") else "np.%s(a)" % name))
    return out


KERNELS = {}


def kernel_for(dtype):
    """One kernel computing every reduction of `a` into out[k] (complex128
    holds every result type exactly: small integers, floats, booleans)."""
    if dtype not in KERNELS:
        lines = ["def k(a, out):"] + ["    out[%d] = %s" % (k, e) for k, (_, e) in enumerate(calls_for(dtype))]
        ns = {"np": np, "cuda": cuda}
        exec("\n".join(lines) + "\n", ns)
        KERNELS[dtype] = cuda.jit(ns["k"])
    return KERNELS[dtype]


def sample(dtype, shape):
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -5), min(info.max, 6), n).astype(dtype).reshape(shape)
    x = rng.uniform(-3, 3, n)
    special = [np.nan, np.inf, -np.inf, -0.0, 0.0]
    for i in rng.choice(n, size=min(n, 2), replace=False):
        x[i] = special[int(rng.integers(0, len(special)))]
    if np.issubdtype(dtype, np.complexfloating):
        return (x + 1j * rng.uniform(-3, 3, n)).astype(dtype).reshape(shape)
    return x.astype(dtype).reshape(shape)


checked = 0
for dtype in DTYPES:
    calls = calls_for(dtype)
    for shape in [(7,), (3, 4)]:
        base = sample(dtype, shape)
        views = [base, np.asfortranarray(base), base[::-1] if base.ndim == 1 else base[:, ::2]]
        if np.issubdtype(dtype, np.floating) and base.ndim == 1:
            views.append(np.full(4, np.nan, dtype))
        for a in views:
            out = np.zeros(len(calls), np.complex128)
            kernel_for(dtype)[1, 1](a, out)
            for k, (name, _) in enumerate(calls):
                want = np.complex128(model({"amin": "min", "amax": "max"}.get(name, name), a))
                assert same(out[k], want), (name, dtype, a.shape, a.strides, out[k], want)
                with np.errstate(all="ignore"):
                    ref = np.complex128(getattr(np, name)(a))
                assert np.allclose(out[k], ref, rtol=1e-5, atol=1e-6, equal_nan=True) or not np.isfinite(ref), \
                    (name, dtype, out[k], ref)
                checked += 1


@cuda.jit(debug=True, opt=False)
def min_of(a, out):
    out[0] = a.min()


try:
    min_of[1, 1](np.zeros(0), np.zeros(1))
except ValueError as e:
    assert "zero-size array to reduction operation minimum which has no identity" in str(e), str(e)
else:
    raise AssertionError("min of an empty array")


def unrolled():
    arrays = (np.float64([1.0, -2.5, 4.0]), np.int32([[1, 2], [3, 4]]), np.array(7), np.bool_([True, False]))

    @cuda.jit
    def k(out):
        i = 0
        for a in literal_unroll(arrays):
            out[i, 0] = np.sum(a)
            out[i, 1] = a.max()
            out[i, 2] = np.count_nonzero(a)
            out[i, 3] = a.mean()
            i += 1

    out = np.zeros((4, 4))
    k[1, 1](out)
    want = np.array([[np.sum(a), np.max(a), np.count_nonzero(a), np.mean(a)] for a in arrays], dtype=np.float64)
    assert np.array_equal(out, want), (out, want)


unrolled()
assert checked > 500, checked
print("reductions ok")
