"""numba.cuda.cudadrv.dummyarray: a data-less model of an array's layout.

numba-cuda's device arrays describe their memory with this model (an
offset from the allocation, a shape, strides and an itemsize) to slice,
reshape and squeeze without touching data, and to find the contiguous byte
ranges ("extents") that a copy must move. The arithmetic has one home, the
engine's layout unit (engine/ir/array_layout.cpp), which cuhost's own
DeviceNDArray uses too; this module keeps numba's public classes and
signatures and computes through `_cuhost._layout_*`.

Layout flags follow NumPy's rules (axes of length 1 are ignored, every empty
array is both C- and F-contiguous). Extents are byte offsets relative to the
allocation's base, end exclusive.
"""
import operator
from collections import namedtuple

import numpy as np

import _cuhost

__all__ = ["Extent", "Dim", "Element", "Array", "attempt_nocopy_reshape", "compute_index", "is_element_indexing",
           "iter_strides_c_contig", "iter_strides_f_contig"]

Extent = namedtuple("Extent", ["begin", "end"])


def _as_int(value, what):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError("all elements of %s must be ints" % what)
    return int(value)


def _base_of(dims):
    # numba's Dims each carry a share of the view's offset (from_desc puts it
    # all on the first axis); the view starts at their sum.
    return sum(d.start for d in dims)


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
        if not isinstance(item, slice):
            item = operator.index(item)
        offset, shape, strides, single = _cuhost._layout_index(self.start, (self.size,), (self.stride,), 1, item)
        if single:  # the one element, as a Dim of length 1
            shape, strides = (1,), (self.stride,)
        start, stop, size, stride = _cuhost._layout_describe(offset, shape, strides, 1)[4][0]
        return Dim(start, stop, size, stride, single)

    def get_offset(self, idx):
        return _cuhost._layout_element_offset(self.start, (self.stride,), (idx,))

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
    dims = list(dims)[:len(indices)]
    return _cuhost._layout_element_offset(_base_of(dims), [d.stride for d in dims], list(indices)[:len(dims)])


class Element:
    """What indexing every axis with an integer gives: one item's extent."""

    is_array = False

    def __init__(self, extent):
        self.extent = extent

    def iter_contiguous_extent(self):
        yield self.extent

    def __repr__(self):
        return "<Element extent=%s>" % (self.extent,)


def iter_strides_c_contig(arr, shape=None):
    """The strides of a C-contiguous array of `shape` (default: arr's) and arr's itemsize."""
    shape = arr.shape if shape is None else shape
    return iter(_cuhost._layout_contiguous_strides(tuple(shape), arr.itemsize, False))


def iter_strides_f_contig(arr, shape=None):
    """The strides of an F-contiguous array of `shape` (default: arr's) and arr's itemsize."""
    shape = arr.shape if shape is None else shape
    return iter(_cuhost._layout_contiguous_strides(tuple(shape), arr.itemsize, True))


def attempt_nocopy_reshape(nd, dims, strides, newnd, newdims, newstrides, itemsize, is_f_order):
    """numba's interface to the no-copy reshape: fills the list `newstrides`
    and returns 1, or returns 0 when the reshape needs a copy."""
    result = _cuhost._layout_nocopy_strides(0, tuple(dims[:nd]), tuple(strides[:nd]), itemsize,
                                            tuple(newdims[:newnd]), bool(is_f_order))
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
        return cls._of_layout(offset, shape, strides, int(itemsize))

    @classmethod
    def _of_layout(cls, offset, shape, strides, itemsize):
        arr = cls.__new__(cls)
        arr._set_layout(offset, tuple(shape), tuple(strides), itemsize)
        return arr

    def __init__(self, dims, itemsize):
        dims = tuple(dims)
        self._set_layout(_base_of(dims), tuple(d.size for d in dims), tuple(d.stride for d in dims), itemsize)

    def _set_layout(self, offset, shape, strides, itemsize):
        self._offset = offset
        self.shape = shape
        self.strides = strides
        self.ndim = len(shape)
        self.itemsize = itemsize
        self.size, extent, c, f, dims = _cuhost._layout_describe(offset, shape, strides, itemsize)
        self.extent = Extent(*extent)
        self.flags = {"C_CONTIGUOUS": c, "F_CONTIGUOUS": f}
        self.dims = tuple(Dim(start, stop, size, stride, False) for start, stop, size, stride in dims)

    def _layout(self):
        return self._offset, self.shape, self.strides, self.itemsize

    def __repr__(self):
        return "<Array dims=%s itemsize=%s>" % (self.dims, self.itemsize)

    def __getitem__(self, item):
        items = item if isinstance(item, tuple) else (item,)
        given = sum(1 for it in items if it is not Ellipsis)
        if given > self.ndim:
            raise IndexError("%d extra indices given" % (given - self.ndim,))
        offset, shape, strides, element = _cuhost._layout_index(*self._layout(), item)
        if element:
            return Element(Extent(*_cuhost._layout_describe(offset, (), (), self.itemsize)[1]))
        return Array._of_layout(offset, shape, strides, self.itemsize)

    @property
    def is_c_contig(self):
        return self.flags["C_CONTIGUOUS"]

    @property
    def is_f_contig(self):
        return self.flags["F_CONTIGUOUS"]

    def iter_contiguous_extent(self):
        """The byte ranges the array's elements occupy, as few as the layout allows."""
        for begin, end in _cuhost._layout_contiguous_extents(*self._layout()):
            yield Extent(begin, end)

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
        new = Array._of_layout(*_cuhost._layout_reshape(*self._layout(), newdims, order), self.itemsize)
        return new, list(self.iter_contiguous_extent())

    def squeeze(self, axis=None):
        """(Array without the length-1 axes, or only those in `axis`; extents of self)."""
        axes = None if axis is None else (axis if isinstance(axis, tuple) else (axis,))
        new = Array._of_layout(*_cuhost._layout_squeeze(*self._layout(), axes), self.itemsize)
        return new, list(self.iter_contiguous_extent())

    def ravel(self, order="C"):
        """(1-d Array of the same elements, extents of self); contiguous arrays only."""
        flat = _cuhost._layout_ravel(*self._layout(), order)
        if flat is None:
            raise NotImplementedError("ravel on non-contiguous array")
        return Array._of_layout(*flat, self.itemsize), list(self.iter_contiguous_extent())


def is_element_indexing(item, ndim):
    """True when `item` selects one element of an `ndim`-d array (no slices)."""
    if isinstance(item, slice):
        return False
    if isinstance(item, tuple):
        return len(item) == ndim and not any(isinstance(it, slice) for it in item)
    return True
