"""numba.vectorize(target="cpu" / "parallel"): ufuncs run by NumPy on the host.

cuhost has no CPU compiler for numba's host targets. A host ufunc therefore applies the Python function element by
element through NumPy (numpy.vectorize), with numba's loop selection: the
declared signatures fix the output dtype of each loop (the inputs cast to
the first loop they reach safely, scalars within their kind), and a ufunc
declared without signatures takes the output type of the function's
results. Results and dtypes are those of a compiled numba CPU ufunc; the
speed is the interpreter's (use target="cuda" for compiled code, which runs
on the CPU backend too).
"""
import functools as _functools

import numpy as np

from .sigparse import dtype_of, normalize_signature


class HostUFunc:
    """A universal function for numba's host targets, run by NumPy."""

    def __init__(self, pyfunc, identity=None, target="cpu"):
        self.py_func = pyfunc
        self.__name__ = getattr(pyfunc, "__name__", "ufunc")
        self.__qualname__ = getattr(pyfunc, "__qualname__", self.__name__)
        self.__doc__ = pyfunc.__doc__
        self.identity = identity
        self.target = target
        self._loops = []  # (input dtypes, output dtype)
        self._dynamic = True

    def add(self, sig):
        args, ret = normalize_signature(sig)
        if ret is None:
            raise TypeError("a %s-target vectorize signature needs a return type: %r" % (self.target, sig))
        self._loops.append((tuple(dtype_of(a) for a in args), dtype_of(ret)))

    def disable_compile(self):
        self._dynamic = False

    @property
    def nin(self):
        return len(self._loops[0][0]) if self._loops else self.py_func.__code__.co_argcount

    @property
    def nout(self):
        return 1

    @property
    def types(self):
        return ["%s->%s" % ("".join(d.char for d in ins), out.char) for ins, out in self._loops]

    def __repr__(self):
        return "<%s ufunc '%s'>" % (self.target, self.__name__)

    def _select(self, arrays, scalars):
        dtypes = tuple(a.dtype for a in arrays)
        for ins, out in self._loops:
            if ins == dtypes:
                return ins, out
        for ins, out in self._loops:
            if all(np.can_cast(d, f, "same_kind" if s else "safe") for d, f, s in zip(dtypes, ins, scalars)):
                return ins, out
        if self._dynamic:
            return None, None
        raise TypeError("ufunc '%s' not supported for the input types (%s): its loops are %s"
                        % (self.__name__, ", ".join(map(str, dtypes)), ", ".join(self.types)))

    def __call__(self, *args, out=None):
        nin = self.nin
        if len(args) == nin + 1 and out is None:
            out, args = args[nin], args[:nin]
        elif len(args) != nin:
            raise TypeError("%s() takes from %d to %d positional arguments but %d were given"
                            % (self.__name__, nin, nin + 1, len(args)))
        scalars = tuple(np.ndim(a) == 0 for a in args)
        arrays = [np.asarray(a) for a in args]
        ins, outdtype = self._select(arrays, scalars)
        if ins is not None:
            arrays = [a.astype(t, copy=False) for a, t in zip(arrays, ins)]
            kernel = np.vectorize(self._scalar_call(ins), otypes=[outdtype])
        else:
            kernel = np.vectorize(self._scalar_call(None))
        result = kernel(*arrays)
        if out is not None:
            out[...] = result
            return out
        return result[()] if np.ndim(result) == 0 else result

    def _scalar_call(self, ins):
        f = self.py_func
        if ins is None:
            return f
        types = [t.type for t in ins]

        def call(*xs):
            return f(*(t(x) for t, x in zip(types, xs)))

        return call

    def reduce(self, array, axis=0):
        """Fold the ufunc over a 1-d array (or along `axis`)."""
        a = np.asarray(array)
        if self.nin != 2:
            raise ValueError("reduce only supported for binary functions")
        if a.shape[axis] == 0:
            if self.identity is None:
                raise ValueError("zero-size array to reduction operation %s which has no identity" % self.__name__)
            return a.dtype.type(self.identity)
        moved = np.moveaxis(a, axis, 0)
        return _functools.reduce(lambda x, y: self(x, y), moved[1:], moved[0])
