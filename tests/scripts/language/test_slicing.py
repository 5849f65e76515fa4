# Array views inside kernels: partial indexing (a[i] of a 2-d array), basic
# slices with runtime and negative bounds and steps clamped like Python,
# chained indexing, writes through views, len/shape/size of views, views
# passed to device functions and scalar fills of slices. Every result is
# compared with NumPy on random data (bounds checks: test_slicing_bounds.py).
# stdout: slicing: all checks passed
import numpy as np
from numba import cuda

rng = np.random.default_rng(11)


# ---- rows and columns of a 2-d array ----------------------------------------
@cuda.jit
def rows_and_cols(a, out_row, out_col, meta):
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i]
        s = 0.0
        for j in range(len(row)):
            s += row[j] * (j + 1)
        out_row[i] = s
        r2 = a[i, :]
        meta[i, 0] = len(r2)
        meta[i, 1] = r2.shape[0]
        meta[i, 2] = r2.size
        meta[i, 3] = r2.ndim
    if i < a.shape[1]:
        col = a[:, i]
        s = 0.0
        for k in range(col.shape[0]):
            s += col[k] * (k + 2)
        out_col[i] = s


a = rng.random((13, 9))
out_row = np.zeros(13)
out_col = np.zeros(9)
meta = np.zeros((13, 4), np.int64)
rows_and_cols[1, 32](a, out_row, out_col, meta)
np.testing.assert_allclose(out_row, a @ np.arange(1, 10))
np.testing.assert_allclose(out_col, np.arange(2, 15) @ a)
assert (meta == [9, 9, 9, 1]).all(), meta

# An F-ordered input and a strided (non-contiguous) input give the same sums.
for src in (np.asfortranarray(a), rng.random((26, 27))[::2, ::3]):
    o_r = np.zeros(src.shape[0])
    o_c = np.zeros(src.shape[1])
    m = np.zeros((src.shape[0], 4), np.int64)
    rows_and_cols[1, 32](src, o_r, o_c, m)
    np.testing.assert_allclose(o_r, src @ np.arange(1, src.shape[1] + 1))
    np.testing.assert_allclose(o_c, np.arange(2, src.shape[0] + 2) @ src)


# ---- 1-d slices with runtime bounds and steps (Python's clamping) -----------
@cuda.jit
def slice_table(v, params, lengths, values):
    t = cuda.grid(1)
    if t < params.shape[0]:
        lo = params[t, 0]
        hi = params[t, 1]
        st = params[t, 2]
        s = v[lo:hi:st]
        lengths[t] = len(s)
        for k in range(s.size):
            values[t, k] = s[k]


v = rng.random(10)
cases = [(lo, hi, st) for lo in range(-13, 14, 3) for hi in range(-12, 14, 4) for st in (1, 2, 3, -1, -2, -4, 7)]
params = np.array(cases, np.int64)
lengths = np.full(len(cases), -1, np.int64)
values = np.full((len(cases), 10), -1.0)
slice_table[(len(cases) + 63) // 64, 64](v, params, lengths, values)
for t, (lo, hi, st) in enumerate(cases):
    ref = v[lo:hi:st]
    assert lengths[t] == len(ref), (lo, hi, st, lengths[t], len(ref))
    np.testing.assert_array_equal(values[t, :len(ref)], ref)


# Literal and omitted bounds, negative literal steps, slices of slices.
@cuda.jit
def literal_slices(v, out):
    if cuda.grid(1) == 0:
        a = v[1:3]
        out[0] = a[0] + 10 * a[1] + 100 * len(a)
        b = v[::2]
        out[1] = b[len(b) - 1] + len(b)
        c = v[::-1]
        out[2] = c[0] + 10 * c[-1]
        d = v[-4:]
        out[3] = d[0] + len(d)
        e = v[:-7]
        out[4] = e[-1] + len(e)
        f = v[8:2:-2]
        out[5] = f[0] + 10 * f[1] + 100 * f[2] + 1000 * len(f)
        g = v[2:][::3][1:]
        out[6] = g[0] + 10 * len(g)
        h = v[5:5]
        out[7] = len(h)


v = rng.integers(0, 9, 12).astype(np.float64)
out = np.zeros(8)
literal_slices[1, 1](v, out)
ref = [
    v[1] + 10 * v[2] + 200,
    v[::2][-1] + len(v[::2]),
    v[-1] + 10 * v[0],
    v[-4] + 4,
    v[:-7][-1] + 5,
    v[8] + 10 * v[6] + 100 * v[4] + 3000,
    v[2:][::3][1:][0] + 10 * len(v[2:][::3][1:]),
    0,
]
np.testing.assert_array_equal(out, ref)


# ---- chained indexing and writes through views ------------------------------
@cuda.jit
def write_through(a, b):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        row = a[i]
        row[j] = row[j] * 2 + b[i][j]
        a[i][j] += 1


a = rng.random((7, 11))
b = rng.random((7, 11))
ref = (a * 2 + b) + 1
write_through[(1, 1), (8, 16)](a, b)
np.testing.assert_allclose(a, ref)


# ---- 3-d views: a[i] is 2-d, mixed integer/slice/negative-step indices ------
@cuda.jit
def views3d(a, out, out2):
    i, j, k = cuda.grid(3)
    if i >= a.shape[0]:
        return
    plane = a[i]
    if j < plane.shape[0] and k < plane.shape[1]:
        out[i, j, k] = plane[j, k] + plane[j][k]
    part = a[i, 1:, ::-1]
    if j < part.shape[0] and k < part.shape[1]:
        out2[i, j, k] = part[j, k]


a = rng.random((3, 5, 6))
out = np.zeros_like(a)
out2 = np.zeros((3, 4, 6))
views3d[(1, 1, 1), (4, 8, 8)](a, out, out2)
np.testing.assert_allclose(out, 2 * a)
np.testing.assert_array_equal(out2, a[:, 1:, ::-1])


# ---- views passed to device functions ---------------------------------------
@cuda.jit(device=True)
def weighted_sum(x):
    s = 0.0
    for k in range(x.shape[0]):
        s += x[k] * (k + 1)
    return s


@cuda.jit(device=True)
def scale(x, f):
    for k in range(len(x)):
        x[k] *= f


@cuda.jit
def call_with_views(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = weighted_sum(a[i]) + weighted_sum(a[i, ::2])
        scale(a[i, 1:], 3.0)


a = rng.random((6, 8))
expected_out = a @ np.arange(1, 9) + a[:, ::2] @ np.arange(1, 5)
expected_a = a.copy()
expected_a[:, 1:] *= 3.0
out = np.zeros(6)
call_with_views[1, 8](a, out)
np.testing.assert_allclose(out, expected_out)
np.testing.assert_allclose(a, expected_a)


# ---- scalar fills of slices and rows ----------------------------------------
@cuda.jit
def fills(a, m, x):
    if cuda.grid(1) == 0:
        a[1:4] = 0
        a[::-3] = x
        m[2] = -1.5
        m[:, 1] = 7
        m[-1, ::2] = x
        m[3:1:-1, 2:] = 9


a = rng.random(12)
m = rng.random((5, 4))
ra = a.copy()
ra[1:4] = 0
ra[::-3] = 2.5
rm = m.copy()
rm[2] = -1.5
rm[:, 1] = 7
rm[-1, ::2] = 2.5
rm[3:1:-1, 2:] = 9
fills[1, 1](a, m, 2.5)
np.testing.assert_array_equal(a, ra)
np.testing.assert_array_equal(m, rm)

# Integer arrays and bools fill too.
ia = rng.integers(0, 100, (4, 6)).astype(np.int32)
ba = np.zeros(9, np.bool_)


@cuda.jit
def fill_typed(ia, ba):
    if cuda.grid(1) == 0:
        ia[1] = 5.9  # converted to int32 like an element store
        ba[2:7:2] = True


ria = ia.copy()
ria[1] = 5
rba = ba.copy()
rba[2:7:2] = True
fill_typed[1, 1](ia, ba)
np.testing.assert_array_equal(ia, ria)
np.testing.assert_array_equal(ba, rba)



# ---- arrays and tuples stored into views (NumPy broadcasting) ---------------
@cuda.jit
def copies(m, src, v, w):
    i = cuda.grid(1)
    if i < m.shape[0]:
        m[i] = src[i, ::-1]  # a row from a reversed row of another array
    if i == 0:
        w[1:4] = v[::-4]  # float64 -> int32 per element, like numba
        w[4:7] = 7, 8.9, True
        w[7:] = v[0:1]  # a 1-element source broadcasts


@cuda.jit
def broadcast_rows(m, row):
    if cuda.grid(1) == 0:
        m[:, 1:] = row[1:]
        m[:, :] = m  # the very same elements: allowed


m = np.zeros((5, 6))
src = rng.random((5, 6))
v = rng.random(10) * 100
w = np.zeros(10, np.int32)
copies[1, 8](m, src, v, w)
np.testing.assert_array_equal(m, src[:, ::-1])
rw = np.zeros(10, np.int32)
rw[1:4] = v[::-4].astype(np.int32)
rw[4:7] = (7, 8, 1)
rw[7:] = np.int32(v[0])
np.testing.assert_array_equal(w, rw)
row = rng.random(6)
m2 = rng.random((4, 6))
rm2 = m2.copy()
rm2[:, 1:] = row[1:]
broadcast_rows[1, 1](m2, row)
np.testing.assert_array_equal(m2, rm2)


# ---- views of shared memory, used across a barrier --------------------------
@cuda.jit
def shared_views(a, out):
    sh = cuda.shared.array((4, 32), np.float64)
    i = cuda.threadIdx.x
    row = a[cuda.blockIdx.x]
    srow = sh[i % 4]
    srow[i] = row[i] * 2
    cuda.syncthreads()
    col = sh[:, i]
    out[cuda.blockIdx.x, i] = col[i % 4] + row[i]


a = rng.random((3, 32))
out = np.zeros((3, 32))
shared_views[3, 32](a, out)
np.testing.assert_allclose(out, 3 * a)


# ---- for x in array: elements of a 1-d array, row views of an n-d one -------
@cuda.jit
def iterate_arrays(m, v, out):
    if cuda.grid(1) == 0:
        k = 0
        for row in m:
            s = 0.0
            for x in row:
                s += x
            out[k] = s
            k += 1
        t = 0.0
        for x in v[::-2]:
            t = t * 2 + x
        out[k] = t


m = rng.random((5, 3))
v = rng.random(7)
out = np.zeros(6)
iterate_arrays[1, 1](m, v, out)
t = 0.0
for x in v[::-2]:
    t = t * 2 + x
np.testing.assert_allclose(out, list(m.sum(axis=1)) + [t])

print("slicing: all checks passed")
