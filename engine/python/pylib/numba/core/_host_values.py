"""Results of numba.njit host calls that the C++ side boxes with NumPy's help
(engine/python/host_values.cpp): an array a function returns that is a view
of one of its array arguments becomes a NumPy view of that argument."""
import numpy as _np

import _cuhost


class _View:
    """An __array_interface__ over memory of `base` (which it keeps alive)."""

    def __init__(self, base, interface):
        self.base = base
        self.__array_interface__ = interface


def array_view(base, address, shape, strides, readonly):
    """A NumPy array of `base`'s dtype whose data starts at `address` (inside `base`)."""
    dtype = _np.asarray(base).dtype
    interface = {"data": (address, bool(readonly)), "shape": tuple(shape), "strides": tuple(strides),
                 "typestr": dtype.str, "descr": dtype.descr, "version": 3}
    return _np.asarray(_View(base, interface))


# The host_array_view hook of the C++ engine (engine/python/python_hooks.h).
_cuhost.register_hook("host_array_view", array_view)
