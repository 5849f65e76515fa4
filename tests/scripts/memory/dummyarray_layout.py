# dummyarray.Array models NumPy's layout arithmetic: views from random slices,
# reshapes, squeezes and ravels must have NumPy's shape, strides, contiguity
# flags and byte extents; the refusals raise numba-cuda's exceptions.
# stdout: dummyarray ok
import random

import numpy as np
from numba.cuda.cudadrv.dummyarray import Array, Element

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
