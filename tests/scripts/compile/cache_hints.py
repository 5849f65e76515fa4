# Cache-hinted loads and stores (cuda.ldca/ldcg/ldcs/ldlu/ldcv,
# cuda.stcg/stcs/stwb/stwt) move the same values as plain indexing, for 1-d
# and 2-d arrays and C pointers, each as one PTX ld.global.<hint> /
# st.global.<hint> of the element's width; numba-cuda's typing errors;
# nanosleep compiles to nanosleep.u32.
# stdout: cache hints ok
import numpy as np
from numba import cuda, types
from numba.cuda.core.errors import TypingError

rng = np.random.default_rng(3)
loads = [(cuda.ldca, "ca"), (cuda.ldcg, "cg"), (cuda.ldcs, "cs"), (cuda.ldlu, "lu"), (cuda.ldcv, "cv")]
stores = [(cuda.stcg, "cg"), (cuda.stcs, "cs"), (cuda.stwb, "wb"), (cuda.stwt, "wt")]
dtypes = [np.int8, np.uint16, np.int32, np.uint64, np.float16, np.float32, np.float64]

for load, hint in loads:
    @cuda.jit
    def copy2d(r, x):
        i, j = cuda.grid(2)
        if i < x.shape[0] and j < x.shape[1]:
            r[i, j] = load(x, (i, j))

    for dt in dtypes:
        x = (rng.standard_normal((5, 7)) * 50).astype(dt)
        r = np.zeros_like(x)
        copy2d[(1, 1), (8, 8)](r, x)
        np.testing.assert_array_equal(r, x)
        sig = (types.Array(types.float32, 2, "C"),) * 2 if dt is np.float32 else None
        if sig:
            ptx = copy2d.inspect_asm(sig)
            assert "ld.global.%s.b32" % hint in ptx, ptx

for store, hint in stores:
    @cuda.jit
    def copy1d(r, x):
        i = cuda.grid(1)
        if i < x.size:
            store(r, i, x[i] * 2)

    for dt in dtypes:
        x = (rng.standard_normal(40) * 30).astype(dt)
        r = np.zeros_like(x)
        copy1d[1, 64](r, x)
        np.testing.assert_array_equal(r, (x * 2).astype(dt))

    def via_pointer(p, values, n):
        for i in range(n):
            store(p, i, values[i])

    for dt, bits in [(types.int8, 8), (types.float16, 16), (types.uint64, 64)]:
        ptx, _ = cuda.compile_ptx(via_pointer, (types.CPointer(dt), dt[::1], types.intp))
        assert "st.global.%s.b%d" % (hint, bits) in ptx, ptx


def expect(fn, sig, text):
    try:
        cuda.compile_ptx(fn, sig)
    except TypingError as e:
        assert text in str(e), str(e)
        return
    raise AssertionError("no TypingError: " + text)


def float_index(x):
    cuda.ldcs(x, 1.0)


def long_index(x):
    cuda.ldcs(x, (1, 2))


def scalar_index_2d(x):
    cuda.ldcs(x, 1)


def complex_load(r, x):
    r[0] = cuda.ldcg(x, 0)


def tuple_pointer(p):
    cuda.ldca(p, (0, 1))


expect(float_index, (types.float32[::1],), "float64 is not a valid index")
expect(long_index, (types.float32[::1],), "Expected 1 indices, got 2")
expect(scalar_index_2d, (types.float32[:, ::1],), "Expected 2 indices, got a scalar")
expect(complex_load, (types.complex64[::1],) * 2, "ldcg requires array of integer or float type, got complex64")
expect(tuple_pointer, (types.CPointer(types.int32),), "Pointers only support scalar indexing, got tuple of 2")


def sleepy(ns):
    cuda.nanosleep(32)
    cuda.nanosleep(ns)


ptx, _ = cuda.compile_ptx(sleepy, (types.uint32,))
assert ptx.count("nanosleep.u32") == 2, ptx


@cuda.jit
def naps(out):
    cuda.nanosleep(100)
    out[cuda.grid(1)] = 1


flags = np.zeros(32, np.int32)
naps[1, 32](flags)
assert flags.all()
print("cache hints ok")
