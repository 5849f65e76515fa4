"""@guvectorize(target="cuda"): generalized universal functions on the device.

The layout string ("(m,n),(n,p)->(m,p)") names each argument's core
dimensions; the dimensions left of the core ones are loop dimensions, and
the gufunc runs the user's function once per loop index. GUFuncEngine
matches the arguments' shapes against the layout (numba-cuda's
numba.cuda.deviceufunc.GUFuncEngine and its schedule); CUDAGeneralizedUFunc
picks the loop for the input dtypes, moves arrays to the device, collapses
the loop dimensions into one and launches a generated grid-stride kernel
that calls the user's function (a device function) with each loop index's
core views. An input with no loop dimensions ("pinned") is the same for
every index.
"""
import operator as _operator
import pprint
from functools import reduce as _reduce

import numpy as np

# The package itself: generated kernel source spells cuda.grid() and friends through it.
import cuda as _cuda_mod

from ... import types as _types
from ...compiler import _to_type
from ...kernels._launch import compile_kernel, device_function, launch
from .sigparse import dtype_of, normalize_signature, parse_signature
from .ufunc import _as_device_array, _device_array, _has_cai, _is_device_array, _to_device


def check_signature_returns_none(sig):
    args, ret = normalize_signature(sig)
    if ret is not None and ret != _types.void:
        raise TypeError("guvectorized functions cannot return values: signature %s specifies %s return type"
                        % (sig, ret))
    return args


def _prod(shape):
    return _reduce(_operator.mul, shape, 1)


class GUFuncSchedule:
    """How one call runs: the core shapes of the inputs (ishapes) and
    outputs (oshapes), the loop dimensions, the number of loop iterations
    (loopn) and which inputs are the same for every iteration (pinned)."""

    def __init__(self, parent, ishapes, oshapes, loopdims, pinned):
        self.parent = parent
        self.ishapes = ishapes
        self.oshapes = oshapes
        self.loopdims = loopdims
        self.loopn = _prod(loopdims)
        self.pinned = pinned
        self.output_shapes = [loopdims + s for s in oshapes]

    def __str__(self):
        return pprint.pformat({k: getattr(self, k) for k in ("ishapes", "oshapes", "loopdims", "loopn", "pinned")})


class GUFuncEngine:
    """Matches input shapes against a gufunc layout."""

    @classmethod
    def from_signature(cls, signature):
        return cls(*parse_signature(signature))

    def __init__(self, inputsig, outputsig):
        self.sin = inputsig
        self.sout = outputsig
        self.nin = len(inputsig)
        self.nout = len(outputsig)

    def schedule(self, ishapes):
        if len(ishapes) != self.nin:
            raise TypeError("invalid number of input argument")
        sizes = {}
        outer_shapes = []
        inner_shapes = []
        for argn, (shape, symbols) in enumerate(zip(ishapes, self.sin), start=1):
            shape = tuple(shape)
            nd = len(symbols)
            if len(shape) < nd:
                raise ValueError("arg #%d: insufficient inner dimension" % argn)
            inner = shape[len(shape) - nd:]
            outer = shape[:len(shape) - nd]
            for axis, (dim, sym) in enumerate(zip(inner, symbols), start=len(outer)):
                if sizes.setdefault(sym, dim) != dim:
                    raise ValueError("arg #%d: shape[%d] mismatch argument" % (argn, axis))
            outer_shapes.append(outer)
            inner_shapes.append(inner)
        oshapes = [tuple(sizes[s] for s in sig) for sig in self.sout]
        loop_sizes = [_prod(s) for s in outer_shapes]
        loopdims = outer_shapes[int(np.argmax(loop_sizes))] if outer_shapes else ()
        pinned = [False] * self.nin
        for i, d in enumerate(outer_shapes):
            if d != loopdims:
                if d == (1,) or d == ():
                    pinned[i] = True
                else:
                    raise ValueError("arg #%d: outer dimension mismatch" % (i + 1))
        return GUFuncSchedule(self, inner_shapes, oshapes, loopdims, pinned)


class _GULoop:
    __slots__ = ("argtypes", "indtypes", "outdtypes")

    def __init__(self, argtypes, nin):
        self.argtypes = argtypes
        dts = tuple(dtype_of(t) for t in argtypes)
        self.indtypes = dts[:nin]
        self.outdtypes = dts[nin:]


def _plural(n):
    return "%d positional argument%s" % (n, "" if n == 1 else "s")


class CUDAGeneralizedUFunc:
    """A generalized ufunc made by @guvectorize(target="cuda")."""

    def __init__(self, pyfunc, layout, identity=None):
        self.py_func = pyfunc
        self.__name__ = getattr(pyfunc, "__name__", "gufunc")
        self.__qualname__ = getattr(pyfunc, "__qualname__", self.__name__)
        self.__doc__ = pyfunc.__doc__
        self.identity = identity
        self.signature = layout
        self.engine = GUFuncEngine.from_signature(layout)
        self._loops = []
        self._core = None
        self._kernels = {}
        self._dynamic = True

    @property
    def nin(self):
        return self.engine.nin

    @property
    def nout(self):
        return self.engine.nout

    @property
    def nargs(self):
        return self.nin + self.nout

    @property
    def types(self):
        return ["%s->%s" % ("".join(d.char for d in lp.indtypes), "".join(d.char for d in lp.outdtypes))
                for lp in self._loops]

    @property
    def kernelmap(self):
        return {lp.indtypes: lp.outdtypes for lp in self._loops}

    def __repr__(self):
        return "<CUDA gufunc '%s' %s>" % (self.__name__, self.signature)

    def disable_compile(self):
        self._dynamic = False

    def add(self, sig):
        args = check_signature_returns_none(sig)
        if len(args) != self.nargs:
            raise TypeError("signature %s of gufunc '%s' has %d arguments; its layout '%s' has %d"
                            % (sig, self.__name__, len(args), self.signature, self.nargs))
        dims = [len(s) for s in self.engine.sin + self.engine.sout]
        for k, (t, nd) in enumerate(zip(args, dims)):
            if isinstance(t, _types.Array):
                if t.ndim != nd and not (nd == 0 and t.ndim == 1):
                    raise TypeError("gufunc signature mismatch: argument %d of %s is %d-d but its layout '%s' "
                                    "gives it %d core dimensions" % (k + 1, sig, t.ndim, self.signature, nd))
            elif nd > 0:
                raise ValueError("gufunc signature mismatch: ndim>0 for scalar (argument %d of %s)" % (k + 1, sig))
            elif k >= self.nin:
                raise TypeError("gufunc output %d of %s must be an array type (outputs are written in place)"
                                % (k + 1 - self.nin, sig))
        self._loops.append(_GULoop(tuple(args), self.nin))

    def _device_core(self):
        if self._core is None:
            self._core = device_function(self.py_func)
        return self._core

    # ---- loop selection ------------------------------------------------

    def _select(self, inputs, outputs):
        """The loop for these inputs: an exact match of dtypes; else the
        first loop NumPy's safe casting reaches (a 0-d host input casts by
        value); else, as numba-cuda does, the first loop whose types cast
        safely to the inputs' and that the inputs reach with NumPy's
        default same_kind casting (they are narrowed to it: int64 to int32,
        never float to int)."""
        indtypes = tuple(a.dtype for a in inputs)
        for lp in self._loops:
            if lp.indtypes == indtypes:
                return lp
        for lp in self._loops:
            if all(_can_cast_input(a, d) for a, d in zip(inputs, lp.indtypes)):
                return lp
        if self._dynamic and all(o is not None for o in outputs):
            return self._compile_for(indtypes, tuple(o.dtype for o in outputs))
        for lp in self._loops:
            if all(np.can_cast(d, a) and np.can_cast(a, d, "same_kind") for a, d in zip(indtypes, lp.indtypes)):
                return lp
        if self._dynamic:
            raise TypeError("the dynamic gufunc '%s' has no loop for input types (%s): pass its output arrays "
                            "so that their types are known" % (self.__name__, ", ".join(map(str, indtypes))))
        raise TypeError("no matching signature: gufunc '%s' has loops %s; the inputs are (%s)"
                        % (self.__name__, ", ".join(self.types), ", ".join(map(str, indtypes))))

    def _compile_for(self, indtypes, outdtypes):
        dims = [len(s) for s in self.engine.sin + self.engine.sout]
        args = []
        for k, (dt, nd) in enumerate(zip(indtypes + outdtypes, dims)):
            t = _to_type("bool" if dt == np.bool_ else str(dt))
            args.append(t if nd == 0 and k < self.nin else _types.Array(t, max(nd, 1), "A"))
        self.add(tuple(args))
        return self._loops[-1]

    # ---- calls -----------------------------------------------------------

    def __call__(self, *args, out=None, stream=0, **kws):
        if kws:
            raise TypeError("gufunc '%s' got unexpected keyword argument(s): %s (it takes out= and stream=)"
                            % (self.__name__, ", ".join(sorted(kws))))
        nin, nout = self.nin, self.nout
        if out is None and len(args) not in (nin, nin + nout):
            raise TypeError("This gufunc accepts %s (when providing input only) or %s (when providing input and "
                            "output). Got %s." % (_plural(nin), _plural(nin + nout), _plural(len(args))))
        if out is not None and len(args) > nin:
            raise ValueError("cannot specify argument 'out' as both positional and keyword")
        if out is not None:
            outputs = list(out) if isinstance(out, tuple) else [out]
            if len(outputs) != nout:
                raise ValueError("gufunc '%s' has %d outputs; out= gives %d" % (self.__name__, nout, len(outputs)))
        else:
            outputs = list(args[nin:]) or [None] * nout

        inputs = []
        any_device = False
        for a in args[:nin]:
            if _is_device_array(a) or _has_cai(a):
                inputs.append(_as_device_array(a))
                any_device = True
            else:
                inputs.append(np.asarray(a))
        user_out_device = []
        for i, o in enumerate(outputs):
            if o is not None and (_is_device_array(o) or _has_cai(o)):
                outputs[i] = _as_device_array(o)
                user_out_device.append(True)
            else:
                if o is not None and not isinstance(o, np.ndarray):
                    raise TypeError("gufunc '%s': output %d must be an array, not %s"
                                    % (self.__name__, i + 1, type(o).__name__))
                user_out_device.append(False)

        schedule = self.engine.schedule([a.shape for a in inputs])
        loop = self._select(inputs, outputs)
        for sched_shape, o in zip(schedule.output_shapes, outputs):
            if o is not None and tuple(o.shape) != tuple(sched_shape):
                raise ValueError("output shape mismatch: gufunc '%s' writes an output of shape %s; the output "
                                 "array given has shape %s" % (self.__name__, tuple(sched_shape), tuple(o.shape)))
        for i, (want, a) in enumerate(zip(loop.indtypes, inputs)):
            if a.dtype != want:
                if not hasattr(a, "astype"):
                    raise TypeError("compatible signature is possible by casting but %s does not support .astype()"
                                    % type(a))
                inputs[i] = a.astype(want)

        loopn = schedule.loopn
        kargs = []
        exprs = []
        for k, (a, core, pinned) in enumerate(zip(inputs, schedule.ishapes, schedule.pinned)):
            t = loop.argtypes[k]
            is_array_type = isinstance(t, _types.Array)
            if pinned:
                if core:
                    kargs.append(self._on_device(_reshape(a, core), stream))
                    exprs.append("a%d" % k)
                elif is_array_type:
                    kargs.append(self._on_device(_reshape(a, (1,)), stream))
                    exprs.append("a%d" % k)
                elif isinstance(a, np.ndarray):
                    kargs.append(a.reshape(-1)[0])
                    exprs.append("a%d" % k)
                else:
                    kargs.append(_reshape(a, (1,)))
                    exprs.append("a%d[0]" % k)
            else:
                kargs.append(self._on_device(_reshape(a, (loopn, *tuple(core))), stream))
                exprs.append(("a%d[_i:_i + 1]" % k) if (not core and is_array_type) else ("a%d[_i]" % k))

        douts = []
        for i, (shape, dt, o) in enumerate(zip(schedule.output_shapes, loop.outdtypes, outputs)):
            if o is not None and user_out_device[i]:
                if o.dtype != dt:
                    raise TypeError("gufunc '%s': output %d is a device array of %s; the loop writes %s"
                                    % (self.__name__, i + 1, o.dtype, dt))
                d = o
            else:
                d = _device_array(shape, dt, stream)
            douts.append(d)
            k = nin + i
            oshape = schedule.oshapes[i]
            kargs.append(_reshape(d, (loopn, *tuple(oshape))))
            exprs.append(("a%d[_i]" % k) if oshape else ("a%d[_i:_i + 1]" % k))

        kernel = self._kernel(loop, tuple(exprs))
        launch(kernel, loopn, stream, [loopn, *kargs], occupancy_check=True)

        copy_to_host = not any_device and not any(user_out_device)
        results = []
        for i, (d, o) in enumerate(zip(douts, outputs)):
            if user_out_device[i]:
                results.append(o)
            elif o is not None:
                _copy_to_host(d, o, stream)
                results.append(o)
            elif copy_to_host:
                results.append(_copy_to_host(d, None, stream))
            else:
                results.append(d)
        return results[0] if nout == 1 else tuple(results)

    @staticmethod
    def _on_device(a, stream):
        if isinstance(a, np.ndarray):
            if not (a.flags.c_contiguous or a.flags.f_contiguous):
                a = np.ascontiguousarray(a)
            return _to_device(a, stream)
        return a

    def _kernel(self, loop, exprs):
        key = (loop.argtypes, exprs)
        k = self._kernels.get(key)
        if k is None:
            name = "_gufunc_%s" % "".join(c if c.isalnum() else "_" for c in self.__name__)
            params = ", ".join("a%d" % i for i in range(len(exprs)))
            src = ("def %s(_n, %s):\n"
                   "    _i = _cuda.grid(1)\n"
                   "    _s = _cuda.gridsize(1)\n"
                   "    while _i < _n:\n"
                   "        _core(%s)\n"
                   "        _i += _s\n") % (name, params, ", ".join(exprs))
            k = self._kernels[key] = compile_kernel(src, name, {"_cuda": _cuda_mod, "_core": self._device_core()})
        return k


def _can_cast_input(a, dtype):
    if isinstance(a, np.ndarray) and a.ndim == 0:
        return np.can_cast(np.min_scalar_type(a[()]), dtype)
    return np.can_cast(a.dtype, dtype)


def _reshape(a, shape):
    shape = tuple(shape)
    if tuple(a.shape) == shape:
        return a
    if isinstance(a, np.ndarray):
        return a.reshape(shape)
    try:
        return a.reshape(*shape) if shape else a.reshape(1)
    except Exception:
        # A device array whose layout cannot be viewed so: a contiguous copy.
        host = np.ascontiguousarray(a.copy_to_host()).reshape(shape)
        return _to_device(host, 0)


def _copy_to_host(d, host, stream):
    if host is None:
        return d.copy_to_host(stream=stream) if stream else d.copy_to_host()
    return d.copy_to_host(host, stream=stream) if stream else d.copy_to_host(host)
