"""numba.cuda.cudadrv.dummyarray: a data-less model of an array's layout.

numba-cuda's device arrays describe their memory with this model (an
offset from the allocation, a shape, strides and an itemsize) to slice,
reshape and squeeze without touching data, and to find the contiguous byte
ranges ("extents") that a copy must move. cuhost's own device arrays do the
same in C++ (engine/python/device_array_index.cpp); this module is the
Python model that numba-cuda code and tests use directly.

Layout flags follow NumPy's rules (axes of length 1 are ignored, every empty
array is both C- and F-contiguous). Extents are byte offsets relative to the
allocation's base, end exclusive.
"""
import functools
import itertools
import operator
from collections import namedtuple

import numpy as np

__all__ = ["Extent", "Dim", "Element", "Array", "attempt_nocopy_reshape", "compute_index", "is_element_indexing",
           "iter_strides_c_contig", "iter_strides_f_contig"]

Extent = namedtuple("Extent", ["begin", "end"])


def _as_int(value, what):
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("all elements of %s must be ints" % what)
    if isinstance(value, (int, np.integer)):
        return int(value)
    raise TypeError("all elements of %s must be ints" % what)


class Dim:
    """One axis: `start` is the byte offset of its first element, `stop` the
    offset one step past its last, `size` the element count, `stride` the
    byte step, and `single` whether it was selected by an integer index (it
    then disappears from the view's shape)."""

    __slots__ = ("start", "stop", "size", "stride", "single")

    def __init__(self, start, stop, size, stride, single):
        if single and size != 1:
            raise ValueError("an axis selected by an integer has exactly one element")
        self.start = start
        self.stop = stop
        self.size = size
        self.stride = stride
        self.single = single

    def __getitem__(self, item):
        if isinstance(item, slice):
            first, _, step = item.indices(self.size)
            count = len(range(*item.indices(self.size)))
            start = self.start + first * self.stride
            # NumPy keeps the axis' own stride for an empty selection.
            stride = step * self.stride if count else self.stride
            return Dim(start, start + count * stride, count, stride, False)
        index = operator.index(item)
        if index < 0:
            index += self.size
        if not 0 <= index < self.size:
            raise IndexError("index %d is out of bounds for axis with size %d" % (operator.index(item), self.size))
        start = self.start + index * self.stride
        return Dim(start, start + self.stride, 1, self.stride, True)

    def get_offset(self, idx):
        return self.start + idx * self.stride

    def normalize(self, base):
        return Dim(self.start - base, self.stop - base, self.size, self.stride, self.single)

    def copy(self, start=None, stop=None, size=None, stride=None, single=None):
        pick = lambda new, old: old if new is None else new  # noqa: E731
        return Dim(pick(start, self.start), pick(stop, self.stop), pick(size, self.size), pick(stride, self.stride),
                   pick(single, self.single))

    def is_contiguous(self, itemsize):
        return self.stride == itemsize

    def __repr__(self):
        return "Dim(start=%s, stop=%s, size=%s, stride=%s)" % (self.start, self.stop, self.size, self.stride)


def compute_index(indices, dims):
    """Byte offset of the element at `indices` (one per dim)."""
    return sum(d.get_offset(i) for i, d in zip(indices, dims))


class Element:
    """What indexing every axis with an integer gives: one item's extent."""

    is_array = False

    def __init__(self, extent):
        self.extent = extent

    def iter_contiguous_extent(self):
        yield self.extent

    def __repr__(self):
        return "<Element extent=%s>" % (self.extent,)


def _contiguity(shape, strides, itemsize):
    """(C_CONTIGUOUS, F_CONTIGUOUS) by NumPy's rules."""
    if any(n == 0 for n in shape):
        return True, True

    def check(order):
        expected = itemsize
        for n, s in order:
            if n != 1:
                if s != expected:
                    return False
                expected *= n
        return True

    pairs = list(zip(shape, strides))
    return check(reversed(pairs)), check(pairs)


def _c_strides(shape, itemsize):
    strides = []
    step = itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _f_strides(shape, itemsize):
    strides = []
    step = itemsize
    for n in shape:
        strides.append(step)
        step *= max(n, 1)
    return tuple(strides)


def iter_strides_c_contig(arr, shape=None):
    """The strides of a C-contiguous array of `shape` (default: arr's) and arr's itemsize."""
    shape = arr.shape if shape is None else shape
    strides = [arr.itemsize]
    for n in reversed(tuple(shape)[1:]):
        strides.append(strides[-1] * n)
    return iter(reversed(strides))


def iter_strides_f_contig(arr, shape=None):
    """The strides of an F-contiguous array of `shape` (default: arr's) and arr's itemsize."""
    shape = arr.shape if shape is None else shape
    strides = [arr.itemsize]
    for n in tuple(shape)[:-1]:
        strides.append(strides[-1] * n)
    return iter(strides)


def _nocopy_strides(shape, strides, newshape, itemsize, fortran):
    """Strides that give `newshape` over the same memory without a copy, or
    None when the old axes that must merge are not laid out contiguously.
    Reads elements in C order (or F order when `fortran`)."""
    old = [(n, s) for n, s in zip(shape, strides) if n != 1]
    newshape = list(newshape)
    if functools.reduce(operator.mul, newshape, 1) != functools.reduce(operator.mul, (n for n, _ in old), 1):
        return None
    if 0 in newshape:
        return [itemsize] * len(newshape)
    if fortran:  # F order is C order with the axes reversed
        old.reverse()
        newshape.reverse()
    new_strides = [0] * len(newshape)
    oi = ni = 0
    while oi < len(old) and ni < len(newshape):
        # Grow a group of old axes [oi, oj) and new axes [ni, nj) with equal products.
        oj, nj = oi + 1, ni + 1
        op, np_ = old[oi][0], newshape[ni]
        while op != np_:
            if op < np_:
                op *= old[oj][0]
                oj += 1
            else:
                np_ *= newshape[nj]
                nj += 1
        for k in range(oi, oj - 1):  # the old group must be one C-ordered block
            if old[k][1] != old[k + 1][0] * old[k + 1][1]:
                return None
        step = old[oj - 1][1]
        for k in range(nj - 1, ni - 1, -1):
            new_strides[k] = step
            step *= newshape[k]
        oi, ni = oj, nj
    # Remaining new axes have length 1: any stride works; use the innermost one's.
    tail = new_strides[ni - 1] if ni else itemsize
    for k in range(ni, len(newshape)):
        new_strides[k] = tail
    if fortran:
        new_strides.reverse()
    return new_strides


def attempt_nocopy_reshape(nd, dims, strides, newnd, newdims, newstrides, itemsize, is_f_order):
    """numba's interface to the no-copy reshape: fills the list `newstrides`
    and returns 1, or returns 0 when the reshape needs a copy."""
    result = _nocopy_strides(tuple(dims[:nd]), tuple(strides[:nd]), tuple(newdims[:newnd]), itemsize, is_f_order)
    if result is None:
        return 0
    newstrides[:newnd] = result
    return 1


class Array:
    """An array without data: `dims` (one Dim per axis) at byte offsets from
    the allocation's base, and the `itemsize`. Attributes: dims, ndim, shape,
    strides, itemsize, size, extent (Extent of bytes covered), flags."""

    is_array = True

    @classmethod
    def from_desc(cls, offset, shape, strides, itemsize):
        """The array at byte `offset` with `shape` and `strides` (ints or NumPy integers)."""
        offset = _as_int(offset, "offset")
        shape = tuple(_as_int(n, "shape") for n in shape)
        strides = tuple(_as_int(s, "strides") for s in strides)
        if len(shape) != len(strides):
            raise ValueError("shape %r and strides %r differ in length" % (shape, strides))
        dims = []
        base = offset
        for n, s in zip(shape, strides):
            dims.append(Dim(offset, offset + n * s, n, s, False))
            offset = 0  # the offset is carried by the first axis only
        return cls(dims, int(itemsize), _offset=base)

    def __init__(self, dims, itemsize, _offset=0):
        # A 0-d array has no axis to carry its offset: it is kept apart.
        self._offset0 = _offset if not dims else 0
        self.dims = tuple(dims)
        self.ndim = len(self.dims)
        self.shape = tuple(d.size for d in self.dims)
        self.strides = tuple(d.stride for d in self.dims)
        self.itemsize = itemsize
        self.size = functools.reduce(operator.mul, self.shape, 1)
        self.extent = self._compute_extent()
        c, f = _contiguity(self.shape, self.strides, itemsize)
        self.flags = {"C_CONTIGUOUS": c, "F_CONTIGUOUS": f}

    def _base(self):
        return sum(d.start for d in self.dims) + self._offset0

    def _compute_extent(self):
        base = self._base()
        if self.size == 0:
            return Extent(base, base)
        low = high = base
        for d in self.dims:
            span = (d.size - 1) * d.stride
            if span < 0:
                low += span
            else:
                high += span
        return Extent(low, high + self.itemsize)

    def __repr__(self):
        return "<Array dims=%s itemsize=%s>" % (self.dims, self.itemsize)

    def __getitem__(self, item):
        items = list(item) if isinstance(item, tuple) else [item]
        if len(items) > self.ndim:
            raise IndexError("%d extra indices given" % (len(items) - self.ndim,))
        items += [slice(None)] * (self.ndim - len(items))
        picked = [d[it] for d, it in zip(self.dims, items)]
        kept = [d for d in picked if not d.single]
        base = sum(d.start for d in picked)
        if not kept:
            return Element(Extent(base, base + self.itemsize))
        return Array.from_desc(base, [d.size for d in kept], [d.stride for d in kept], self.itemsize)

    @property
    def is_c_contig(self):
        return self.flags["C_CONTIGUOUS"]

    @property
    def is_f_contig(self):
        return self.flags["F_CONTIGUOUS"]

    def iter_contiguous_extent(self):
        """The byte ranges the array's elements occupy, as few as the layout allows."""
        if self.is_c_contig or self.is_f_contig:
            yield self.extent
            return
        # Runs along the axis with the smallest stride, when it is dense.
        inner = min(range(self.ndim), key=lambda k: abs(self.strides[k]))
        dim = self.dims[inner]
        if dim.stride == self.itemsize:
            outer = [d for k, d in enumerate(self.dims) if k != inner]
            for idx in itertools.product(*(range(d.size) for d in outer)):
                begin = compute_index(idx, outer) + dim.start
                yield Extent(begin, begin + dim.size * self.itemsize)
        else:
            for idx in itertools.product(*(range(n) for n in self.shape)):
                begin = compute_index(idx, self.dims)
                yield Extent(begin, begin + self.itemsize)

    def reshape(self, *newdims, **kws):
        """(reshaped Array, extents of self) without copying; (self, None)
        when the shape is unchanged. NotImplementedError when the layout
        would need a copy."""
        order = kws.pop("order", "C")
        if kws:
            raise TypeError("unknown keyword arguments %s" % list(kws))
        if order not in ("C", "F", "A"):
            raise ValueError("order not C|F|A")
        if len(newdims) == 1 and isinstance(newdims[0], (tuple, list)):
            newdims = tuple(newdims[0])
        newdims = tuple(operator.index(n) for n in newdims)
        if newdims == self.shape:
            return self, None
        unknown = [k for k, n in enumerate(newdims) if n < 0]
        if len(unknown) > 1:
            raise ValueError("can only specify one unknown dimension")
        known = functools.reduce(operator.mul, (n for n in newdims if n >= 0), 1)
        if unknown:
            if known == 0 or self.size % known:
                raise ValueError("cannot infer valid shape for unknown dimension")
            k = unknown[0]
            newdims = (*newdims[:k], self.size // known, *newdims[k + 1:])
        if functools.reduce(operator.mul, newdims, 1) != self.size:
            raise ValueError("reshape changes the size of the array")
        if order == "A":
            order = "F" if self.is_f_contig and not self.is_c_contig else "C"
        if self.is_c_contig and order == "C":
            strides = tuple(iter_strides_c_contig(self, newdims))
        elif self.is_f_contig and order == "F":
            strides = tuple(iter_strides_f_contig(self, newdims))
        else:
            strides = _nocopy_strides(self.shape, self.strides, newdims, self.itemsize, order == "F")
            if strides is None:
                raise NotImplementedError("reshape would require copy")
        new = Array.from_desc(self.extent.begin, newdims, strides, self.itemsize)
        return new, list(self.iter_contiguous_extent())

    def squeeze(self, axis=None):
        """(Array without the length-1 axes, or only those in `axis`; extents of self)."""
        if axis is None:
            keep = [k for k, n in enumerate(self.shape) if n != 1]
        else:
            axes = axis if isinstance(axis, tuple) else (axis,)
            norm = set()
            for ax in axes:
                ax = operator.index(ax)
                if not -self.ndim <= ax < self.ndim:
                    raise ValueError("axis %d is out of bounds for array of dimension %d" % (ax, self.ndim))
                ax %= self.ndim
                if self.shape[ax] != 1:
                    raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
                norm.add(ax)
            keep = [k for k in range(self.ndim) if k not in norm]
        new = Array.from_desc(self._base(), [self.shape[k] for k in keep], [self.strides[k] for k in keep],
                              self.itemsize)
        return new, list(self.iter_contiguous_extent())

    def ravel(self, order="C"):
        """(1-d Array of the same elements, extents of self); contiguous arrays only."""
        if order not in ("C", "F", "A"):
            raise ValueError("order not C|F|A")
        if (order in "CA" and self.is_c_contig) or (order in "FA" and self.is_f_contig):
            new = Array.from_desc(self.extent.begin, (self.size,), (self.itemsize,), self.itemsize)
            return new, list(self.iter_contiguous_extent())
        raise NotImplementedError("ravel on non-contiguous array")


def is_element_indexing(item, ndim):
    """True when `item` selects one element of an `ndim`-d array (no slices)."""
    if isinstance(item, slice):
        return False
    if isinstance(item, tuple):
        return len(item) == ndim and not any(isinstance(it, slice) for it in item)
    return True
