# Structured (record) dtypes in kernels: field reads and writes by attribute,
# by literal name and by literal index, on record arrays and on record
# arguments (passed by reference: kernel writes reach the host scalar), nested
# records, array fields (read, write, whole-field copies), element copies
# between arrays, and record-returning device functions. Every result is
# checked against the same operations done by NumPy on random data.
# stdout: record fields ok
import numpy as np
from numba import cuda
from numba.cuda.np import numpy_support

rng = np.random.default_rng(16)
inner = np.dtype([("p", np.int16), ("q", np.float32)], align=True)
rec = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.complex64), ("d", np.uint8, 5),
                ("m", np.float32, (3, 2)), ("n", inner)], align=True)
N = 37


def sample():
    a = np.zeros(N, rec)
    a["a"] = rng.standard_normal(N)
    a["b"] = rng.integers(-1000, 1000, N)
    a["c"] = rng.standard_normal(N) + 1j * rng.standard_normal(N)
    a["d"] = rng.integers(0, 255, (N, 5))
    a["m"] = rng.standard_normal((N, 3, 2))
    a["n"]["p"] = rng.integers(-50, 50, N)
    a["n"]["q"] = rng.standard_normal(N)
    return a


@cuda.jit
def combine(ary, out):
    i = cuda.grid(1)
    if i < ary.size:
        r = ary[i]
        out[i] = r.a * r.b + r["c"].real + r[3][2] + r.m[2, 1] + r.n.p * r.n["q"]


a = sample()
out = np.zeros(N)
combine[2, 32](a, out)
expect = a["a"] * a["b"] + a["c"].real + a["d"][:, 2] + a["m"][:, 2, 1] + a["n"]["p"] * a["n"]["q"]
np.testing.assert_allclose(out, expect, rtol=1e-6)


@cuda.jit
def update(ary, v):
    i = cuda.grid(1)
    if i < ary.size:
        ary[i].a = ary[i].b + v  # int + float -> float64 field
        ary[i]["b"] = i * 3
        ary[i].c = ary[i].c * 2j
        ary[i].d[i % 5] = 7
        ary[i].m[1, 0] = ary[i].m[0, 1]
        ary[i].n.q = ary[i].n.p


a = sample()
e = a.copy()
update[2, 32](a, 0.25)
e["a"] = e["b"] + 0.25
e["b"] = np.arange(N) * 3
e["c"] = e["c"] * 2j
e["d"][np.arange(N), np.arange(N) % 5] = 7
e["m"][:, 1, 0] = e["m"][:, 0, 1]
e["n"]["q"] = e["n"]["p"]
assert (a == e).all(), (a, e)


@cuda.jit
def shuffle(dst, src, perm):
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = src[perm[i]]


src = sample()
perm = rng.permutation(N)
dst = np.zeros(N, rec)
shuffle[2, 32](dst, src, perm)
assert (dst == src[perm]).all()


@cuda.jit
def set_fields(r, v, arr):
    r.a = v
    r.b = 41
    r.n.p = 9
    r["m"] = arr  # a whole array field from an array


host = sample()
rec0 = host[3]
arr = rng.standard_normal((3, 2)).astype(np.float32)
set_fields[1, 1](rec0, 2.5, arr)
assert host[3]["a"] == 2.5 and host[3]["b"] == 41 and host[3]["n"]["p"] == 9
np.testing.assert_array_equal(host[3]["m"], arr)
before = sample()
host2 = before.copy()
set_fields[1, 1](host2[0], -1.0, arr)
assert (host2[1:] == before[1:]).all()  # nothing else touched


@cuda.jit(device=True)
def pick(ary, i):
    return ary[i]


@cuda.jit
def copy_via_device(dst, src):
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = pick(src, dst.size - 1 - i)
        dst[i].n = src[i].n  # a whole nested record


src = sample()
dst = np.zeros(N, rec)
copy_via_device[1, 64](dst, src)
e = src[::-1].copy()
e["n"] = src["n"]
assert (dst == e).all()

# numpy_support.from_dtype gives the record type; explicit signatures use it.
nb = numpy_support.from_dtype(rec)
assert nb.size == rec.itemsize and nb.aligned
assert str(nb).startswith("Record(a[type=float64;offset=0],b[type=int32;offset=8]")
sig_kernel = cuda.jit((nb[:], nb[:], cuda.types.int64[:]))(shuffle.py_func)
dst = np.zeros(N, rec)
sig_kernel[2, 32](dst, src, perm)
assert (dst == src[perm]).all()

# typeof gives record types that know their dtype.
from numba import typeof  # noqa: E402

assert typeof(src[0]) == nb and typeof(src[0]).fields["b"][1] == 8
assert typeof(src).dtype == nb and typeof(src).ndim == 1 and typeof(src).layout == "C"

# Packed records: a field whose offset breaks its type's alignment is refused.
packed = numpy_support.from_dtype(np.dtype([("a", np.int32), ("b", np.float64)]))
try:
    @cuda.jit((packed[:],))
    def bad(x):
        x[0].a = x[0].b
except TypeError as err:
    assert "of type float64 is not aligned" in str(err), err
else:
    raise AssertionError("misaligned field accepted")

# A dtype's record type comes from the engine (a TypeHandle of kind
# "record"); a dtype that is no record, or has a field kernels cannot hold,
# has none.
from numba.cuda.np.numpy_support import from_dtype as _from_dtype  # noqa: E402
from numba.cuda import types as _types  # noqa: E402

_rec = _from_dtype(np.dtype([("a", np.int32), ("b", np.float64)], align=True))
assert isinstance(_rec, _types.Record) and _rec.fields["b"] == (_types.float64, 8), _rec.fields
for _bad in (np.dtype([("a", object)]), np.dtype(np.float32)):
    try:
        _types.Record._from_dtype(_bad)
    except NotImplementedError as err:
        assert "has a field with no kernel type in cuhost" in str(err), err
    else:
        raise AssertionError("a record type for %r" % (_bad,))
print("record fields ok")
