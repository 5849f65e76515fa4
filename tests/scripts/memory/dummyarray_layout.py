# dummyarray.Array models NumPy's layout arithmetic: views from random slices,
# reshapes, squeezes and ravels must have NumPy's shape, strides, contiguity
# flags and byte extents; the refusals raise numba-cuda's exceptions.
# stdout: dummyarray ok
import random

import numpy as np
from numba.cuda.cudadrv.dummyarray import Array, Element, compute_index

rng = random.Random(1234)


def model(a):
    base = a.base if a.base is not None else a
    return Array.from_desc(a.ctypes.data - base.ctypes.data, a.shape, a.strides, a.itemsize)


def span(a):
    base = a.base if a.base is not None else a
    if a.size == 0:
        return None
    start = a.ctypes.data - base.ctypes.data
    offsets = [start + sum(i * s for i, s in zip(idx, a.strides)) for idx in np.ndindex(a.shape)]
    return min(offsets), max(offsets) + a.itemsize


def check(got, expect):
    assert got.shape == expect.shape, (got.shape, expect.shape)
    if expect.size:  # NumPy's strides of empty views vary with how they were made
        assert got.strides == expect.strides, (got.strides, expect.strides)
    if expect.size:
        for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS"):
            assert got.flags[flag] == expect.flags[flag], (flag, got, expect.shape, expect.strides)
        assert tuple(got.extent) == span(expect), (got.extent, span(expect), got, expect.shape, expect.strides)
        covered = sorted(got.iter_contiguous_extent())
        assert sum(e - b for b, e in covered) == expect.size * expect.itemsize or expect.strides.count(0)
    else:
        assert got.flags["C_CONTIGUOUS"] and got.flags["F_CONTIGUOUS"]


def rand_index(n):
    if rng.random() < 0.3 and n:
        return rng.randrange(-n, n)
    pick = lambda: rng.choice([None, rng.randrange(-n - 1, n + 2)])  # noqa: E731
    return slice(pick(), pick(), rng.choice([None, 1, 2, -1, -2, 3]))


for trial in range(400):
    shape = tuple(rng.randrange(0, 5) for _ in range(rng.randrange(1, 4)))
    base = np.empty(shape, dtype=rng.choice([np.float64, np.int32, np.int8]), order=rng.choice("CF"))
    arr = model(base)
    check(arr, base)
    index = tuple(rand_index(n) for n in shape[:rng.randrange(1, len(shape) + 1)])
    expect = base[index + (Ellipsis,)]  # a 0-d view, not a scalar, for full integer indexing
    got = arr[index]
    if expect.ndim == 0:
        assert isinstance(got, Element)
        off = expect.ctypes.data - base.ctypes.data
        assert tuple(got.extent) == (off, off + base.itemsize)
        continue
    check(got, expect)
    # reshape to a random factorisation of the size, when NumPy can do it without a copy
    if expect.size:
        new = (expect.size,) if rng.random() < 0.5 else (1, expect.size)
        order = rng.choice("CF")
        view = expect.reshape(new, order=order)
        try:
            r, _ = got.reshape(*new, order=order)
        except NotImplementedError:
            assert not np.shares_memory(view, expect) or view.base is None, "no-copy reshape refused"
        else:
            assert np.shares_memory(view, expect) and view.size == r.size
            assert r.shape == view.shape
    sq, _ = got.squeeze()
    check(sq, expect.squeeze())
    if got.is_c_contig:
        rv, _ = got.ravel()
        assert rv.shape == (expect.size,)
    elif not got.is_f_contig:
        try:
            got.ravel()
        except NotImplementedError:
            pass
        else:
            raise AssertionError("ravel of a non-contiguous array must be refused")


# Random views of real NumPy arrays (any number of axes, negative steps, an
# ellipsis, integers): the model's offset, shape, strides, extent and
# contiguous extents are NumPy's, and so are its no-copy reshapes (with -1,
# in C, F and A order) and squeezes.
def offset(a, base):
    return a.__array_interface__["data"][0] - base.__array_interface__["data"][0]


def covered_bytes(a, base):
    start = offset(a, base)
    return {start + sum(i * s for i, s in zip(idx, a.strides)) + b for idx in np.ndindex(a.shape)
            for b in range(a.itemsize)}


def rand_key(shape):
    key = []
    for n in shape:
        r = rng.random()
        if r < 0.25 and n:
            key.append(rng.randrange(-n, n))
        else:
            bound = lambda: rng.choice([None, rng.randrange(-n - 2, n + 3)])  # noqa: E731
            key.append(slice(bound(), bound(), rng.choice([None, 1, 2, 3, -1, -2, -3])))
    i = rng.randrange(0, len(shape) + 1)
    if rng.random() < 0.3:  # an ellipsis standing for axes i..j-1
        j = rng.randrange(i, len(shape) + 1)
        return tuple(key[:i]) + (Ellipsis,) + tuple(key[j:])
    return tuple(key[:i])


def same_layout(got, expect, base):
    assert got.shape == expect.shape and got.size == expect.size, (got, expect.shape)
    if expect.size:
        assert got.strides == expect.strides, (got.strides, expect.strides, got)
        assert got.extent.begin <= offset(expect, base) < got.extent.end
        covered = covered_bytes(expect, base)
        assert tuple(got.extent) == (min(covered), max(covered) + 1), (got.extent, expect.shape, expect.strides)
        runs = list(got.iter_contiguous_extent())
        assert set(b for lo, hi in runs for b in range(lo, hi)) == covered
        assert sum(hi - lo for lo, hi in runs) == len(covered)
    assert got.is_c_contig == expect.flags.c_contiguous and got.is_f_contig == expect.flags.f_contiguous, (
        got.flags, expect.flags, expect.shape, expect.strides)


def random_shape_of(size):
    if size == 0:
        return tuple(rng.choice([0, 1, 2]) for _ in range(rng.randrange(1, 3))) + (0,)
    dims, rest = [], size
    for _ in range(rng.randrange(0, 3)):
        d = rng.choice([k for k in range(1, rest + 1) if rest % k == 0])
        dims.append(d)
        rest //= d
    dims.append(rest)
    rng.shuffle(dims)
    if rng.random() < 0.4:
        dims[rng.randrange(len(dims))] = -1
    return tuple(dims)


def numpy_view_reshape(a, new, order):
    """NumPy's reshape of `a` as a view (None when it needs a copy): setting
    .shape never copies; F order is C order of the transpose."""
    if order == "A":
        order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    v = a.view() if order == "C" else a.T.view()
    try:
        v.shape = new if order == "C" else new[::-1]
    except AttributeError:
        return None
    except ValueError:
        return None  # -1 that cannot be inferred (an empty array)
    return v if order == "C" else v.T


checked_reshapes = 0
for trial in range(600):
    shape = tuple(rng.randrange(0, 6) for _ in range(rng.randrange(0, 5)))
    dtype = rng.choice([np.float64, np.int32, np.int8, np.complex128])
    base = np.zeros(shape, dtype=dtype, order=rng.choice("CF"))
    arr = Array.from_desc(0, base.shape, base.strides, base.itemsize)
    key = rand_key(shape)
    expect = base[key]
    got = arr[key]
    if not isinstance(expect, np.ndarray):  # one element: NumPy gives a scalar
        assert isinstance(got, Element)
        view = base[key + (Ellipsis,)]
        assert tuple(got.extent) == (offset(view, base), offset(view, base) + base.itemsize)
        continue
    same_layout(got, expect, base)
    if expect.size:
        first = tuple(0 for _ in expect.shape)
        assert got[first].extent.begin == offset(expect, base)
    squeezed, extents = got.squeeze()
    same_layout(squeezed, expect.squeeze(), base)
    ones = tuple(k for k, n in enumerate(expect.shape) if n == 1)
    if ones:
        axis = rng.choice(ones) - rng.choice([0, len(expect.shape)])
        same_layout(got.squeeze(axis=axis)[0], expect.squeeze(axis=axis), base)
    new = random_shape_of(expect.size)
    order = rng.choice("CFA")
    reshaped = numpy_view_reshape(expect, new, order)
    if new == expect.shape:
        assert got.reshape(*new, order=order) == (got, None)
        continue
    try:
        r, _ = got.reshape(*new, order=order)
    except NotImplementedError as e:
        assert str(e) == "reshape would require copy"
        assert reshaped is None, ("NumPy reshapes without a copy", expect.shape, expect.strides, new, order)
        continue
    except ValueError as e:
        assert -1 in new and expect.size == 0, (e, new)
        continue
    assert reshaped is not None, ("reshaped without a copy where NumPy copies", expect.shape, new, order)
    assert r.shape == reshaped.shape, (r.shape, reshaped.shape)
    if reshaped.size:
        assert r.extent.begin <= offset(reshaped, base) < r.extent.end
        for idx in list(np.ndindex(reshaped.shape))[:50]:  # each element at NumPy's address
            assert compute_index(idx, r.dims) == offset(reshaped[idx + (Ellipsis,)], base), (idx, r, new)
    checked_reshapes += 1
assert checked_reshapes > 150, checked_reshapes

# numba-cuda's errors
a = Array.from_desc(0, (3, 4, 5), (160, 40, 8), 8)
for bad, message in (((-1, -1, 3), "can only specify one unknown dimension"),
                     ((-1, 7), "cannot infer valid shape for unknown dimension"),
                     ((7, 9), "reshape changes the size of the array")):
    try:
        a.reshape(*bad)
    except ValueError as e:
        assert message in str(e), e
    else:
        raise AssertionError(bad)
try:
    a[::2].reshape(40)
except NotImplementedError as e:
    assert "reshape would require copy" in str(e)
else:
    raise AssertionError("strided reshape must need a copy")
try:
    a.squeeze(axis=1)
except ValueError as e:
    assert "size not equal to one" in str(e)
else:
    raise AssertionError("squeeze of a long axis")
try:
    Array.from_desc(0, (2.0,), (8,), 8)
except TypeError as e:
    assert "must be ints" in str(e)
else:
    raise AssertionError("float shape")
assert all(type(n) is int for n in Array.from_desc(np.int64(0), (np.int32(3),), (np.int64(8),), 8).shape)
assert len(list(Array.from_desc(0, (4, 5), (40, 8), 8)[::2].iter_contiguous_extent())) == 2
print("dummyarray ok")
