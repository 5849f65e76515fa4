# A structured array's field by attribute (numba's record-array attribute,
# as np.recarray spells it): `a.x` in a kernel is a view of that field of
# every element with the array's shape and byte strides, read and written
# through (writes land in the records), for np.recarray and plain structured
# arrays, 1-d and 2-d, aligned and packed dtypes; a field that is itself an
# array adds its own dimensions (numba's view, C-ordered inside each
# element). Results against NumPy on random data.
# stdout: field views ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(29)

for aligned in (True, False):
    dtype = np.dtype([("flag", np.uint8), ("count", np.int64), ("value", np.float32)], align=aligned)
    rec = np.recarray((40,), dtype=dtype)
    rec.flag = rng.integers(0, 2, 40)
    rec.count = rng.integers(-50, 50, 40)
    rec.value = rng.standard_normal(40).astype(np.float32)
    before = rec.copy()

    @cuda.jit
    def scale_fields(r, out):
        i = cuda.grid(1)
        if i < r.size:
            out[i] = r.value[i] * r.count[i]
            r.count[i] = r.count[i] + r.flag[i]  # written through the view into the records

    out = np.zeros(40, np.float64)
    scale_fields[1, 64](rec, out)
    np.testing.assert_allclose(out, before.value.astype(np.float64) * before.count, rtol=1e-6)
    np.testing.assert_array_equal(rec.count, before.count + before.flag)
    np.testing.assert_array_equal(rec.value, before.value)  # the other fields are untouched
    np.testing.assert_array_equal(rec.flag, before.flag)

grid_dtype = np.dtype([("a", np.float64), ("b", np.int32)], align=True)
grid = np.zeros((6, 7), dtype=grid_dtype)
grid["a"] = rng.standard_normal((6, 7))
grid["b"] = rng.integers(0, 100, (6, 7))


@cuda.jit
def sum_rows(g, out):
    i = cuda.grid(1)
    if i < g.shape[0]:
        col = g.a  # a 2-d view, kept in a local
        s = 0.0
        for j in range(g.shape[1]):
            s += col[i, j] + g.b[i, j]
        out[i] = s


d_grid = cuda.to_device(grid)
sums = np.zeros(6)
sum_rows[1, 8](d_grid, sums)
np.testing.assert_allclose(sums, (grid["a"] + grid["b"]).sum(axis=1), rtol=1e-12)

for aligned in (True, False):
    nested = np.zeros(5, dtype=np.dtype([("n", np.int16), ("v", np.float32, (3,))], align=aligned))
    nested["n"] = rng.integers(-50, 50, 5)
    nested["v"] = rng.standard_normal((5, 3))
    before = nested.copy()

    @cuda.jit
    def whole_nested(r, out, dims):
        v = r.v  # a 2-d view: the records, then the field's own axis
        for i in range(v.shape[0]):
            for j in range(v.shape[1]):
                out[i, j] = v[i, j] * r.n[i]
        dims[0] = v.shape[1]
        dims[1] = v.strides[0]
        dims[2] = v.strides[1]
        r.v[4, 2] = -1.5  # written through into the last record

    out = np.zeros((5, 3), np.float32)
    dims = np.zeros(3, np.int64)
    whole_nested[1, 1](nested, out, dims)
    np.testing.assert_allclose(out, before["v"] * before["n"][:, None], rtol=1e-6)
    assert tuple(dims) == (3, nested.strides[0], 4), dims
    expect = before.copy()
    expect["v"][4, 2] = -1.5
    np.testing.assert_array_equal(nested["v"], expect["v"])
    np.testing.assert_array_equal(nested["n"], expect["n"])
print("field views ok")
