"""@vectorize(target="cuda"): element-wise universal functions on the device.

A CUDAUFunc holds the user's scalar function, compiled once as a device
function, and its loops (one per type signature: input dtypes -> output
dtype). A call follows NumPy's ufunc rules: inputs are arrays, device
arrays, scalars or sequences; shapes broadcast; the loop is the first whose
inputs the arguments cast to safely (scalars: within their kind), an exact
match first; `out=` (host or device) receives the result. The work runs
in a kernel generated for the call's pattern (number of dimensions, which
axes broadcast, which arguments are scalars) and cached.

Results stay on the device when any argument is a device array (or `out`
is one); otherwise they come back to the host, and a call with scalars only
returns a scalar.
"""
import inspect

import numpy as np

# The package itself: generated kernel source spells cuda.grid() and friends through it.
import cuda as _cuda_mod
from _cuhost import DeviceNDArray as _DeviceNDArray, _call_key, _ufunc_call

from ... import types as _types
from ..._type_spelling import from_handle
from ...api import as_cuda_array, device_array, to_device
from ...compiler import _to_type
from ...dispatcher import _FunctionPayload
from ...kernels._launch import compile_kernel, device_function, launch, resident_threads
from ...kernels.reduction import Reduce
from .sigparse import dtype_of, normalize_signature


def _is_device_array(obj):
    return isinstance(obj, _DeviceNDArray)


def _as_device_array(obj):
    if _is_device_array(obj):
        return obj

    return as_cuda_array(obj)


def _has_cai(obj):
    return hasattr(obj, "__cuda_array_interface__") and not isinstance(obj, np.ndarray)


def broadcast_shapes(shapes):
    """NumPy's broadcast of shapes; ValueError naming the argument that fails."""
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for argn, shape in enumerate(shapes):
        for ax, d in enumerate(shape, start=ndim - len(shape)):
            r = result[ax]
            if d == r or d == 1:
                continue
            if r == 1:
                result[ax] = d
            else:
                raise ValueError("operands could not be broadcast together: argument #%d has shape %s, which "
                                 "does not broadcast to %s" % (argn + 1, tuple(shape), tuple(result)))
    return tuple(result)


class _Loop:
    __slots__ = ("intypes", "outtype", "indtypes", "outdtype")

    def __init__(self, intypes, outtype):
        self.intypes = intypes
        self.outtype = outtype
        self.indtypes = tuple(dtype_of(t) for t in intypes)
        self.outdtype = dtype_of(outtype)


def _kernel_source(name, nin, scalars, patterns, out_ndim):
    """Source of a grid-stride kernel computing out[idx] = core(args[idx]).

    patterns None: every array argument and the output are indexed by the
    flat index. Otherwise the flat index is unravelled over the output's
    out_ndim axes and each input indexes with 0 on its broadcast axes
    (patterns[k][ax] False) and drops its missing leading axes."""
    args = ["a%d" % k for k in range(nin)]
    lines = ["def %s(_n, %s, _out):" % (name, ", ".join(args)),
             "    _i = _cuda.grid(1)",
             "    _s = _cuda.gridsize(1)"]
    if patterns is None:
        index = dict.fromkeys(range(nin), "[_i]")
        out_index = "[_i]"
    else:
        for ax in range(1, out_ndim):
            lines.append("    _d%d = _out.shape[%d]" % (ax, ax))
    lines.append("    while _i < _n:")
    if patterns is not None:
        lines.append("        _r = _i")
        for ax in range(out_ndim - 1, 0, -1):
            lines.append("        _j%d = _r %% _d%d" % (ax, ax))
            lines.append("        _r = _r // _d%d" % ax)
        lines.append("        _j0 = _r")
        out_index = "[%s]" % ", ".join("_j%d" % ax for ax in range(out_ndim))
        index = {}
        for k in range(nin):
            if scalars[k]:
                continue
            pat = patterns[k]
            first = out_ndim - len(pat)
            index[k] = "[%s]" % ", ".join(("_j%d" % (first + ax)) if keep else "0" for ax, keep in enumerate(pat))
    items = ["_t%d(%s%s)" % (k, args[k], "" if scalars[k] else index[k]) for k in range(nin)]
    lines.append("        _out%s = _core(%s)" % (out_index, ", ".join(items)))
    lines.append("        _i += _s")
    return "\n".join(lines) + "\n"


class CUDAUFunc:
    """A universal function made by @vectorize(target="cuda")."""

    def __init__(self, pyfunc, identity=None):
        self.py_func = pyfunc
        self.__name__ = getattr(pyfunc, "__name__", "ufunc")
        self.__qualname__ = getattr(pyfunc, "__qualname__", self.__name__)
        self.__doc__ = pyfunc.__doc__
        self.identity = identity
        self._loops = []
        self._nin = None
        self._core = None
        self._kernels = {}
        self._selection = {}
        self._plans = {}
        self._dynamic = True

    # ---- building ------------------------------------------------------

    def _device_core(self):
        if self._core is None:
            self._core = device_function(self.py_func)
        return self._core

    def add(self, sig):
        """Add a loop for a type signature such as float32(float32, float32)."""
        args, ret = normalize_signature(sig)
        if any(isinstance(a, _types.Array) for a in args):
            raise TypeError("vectorize signatures take scalar types; %r has an array argument (use guvectorize)"
                            % (sig,))
        if self._nin is not None and len(args) != self._nin:
            raise TypeError("signature %r of '%s' takes %d arguments; the ufunc's other signatures take %d"
                            % (sig, self.__name__, len(args), self._nin))
        if ret is None:
            ret = self._infer_return(args)
        self._nin = len(args)
        self._loops.append(_Loop(tuple(args), ret))
        self._selection.clear()
        self._plans.clear()

    def _infer_return(self, args):
        info = self._device_core()._nvptx(tuple(args))
        return from_handle(info["return"])

    def disable_compile(self):
        self._dynamic = False

    def __reduce__(self):
        """Pickled by value like a cuda.jit dispatcher: the function's code
        and the loops (their signatures), rebuilt and recompiled on load."""

        sigs = [lp.outtype(*lp.intypes) for lp in self._loops]
        return (_rebuild_ufunc, (_FunctionPayload(self.py_func), sigs, self.identity, self._dynamic))

    @property
    def nin(self):
        return self._nin

    @property
    def nout(self):
        return 1

    @property
    def nargs(self):
        return (self._nin or 0) + 1

    @property
    def ntypes(self):
        return len(self._loops)

    @property
    def types(self):
        return ["%s->%s" % ("".join(d.char for d in lp.indtypes), lp.outdtype.char) for lp in self._loops]

    @property
    def functions(self):
        return {lp.indtypes: lp.outdtype for lp in self._loops}

    def __repr__(self):
        return "<CUDA ufunc '%s'>" % self.__name__

    # ---- loop selection ------------------------------------------------

    def _select(self, dtypes, scalars):
        key = (dtypes, scalars)
        loop = self._selection.get(key)
        if loop is not None:
            return loop
        for lp in self._loops:  # an exact match first
            if lp.indtypes == dtypes:
                loop = lp
                break
        else:
            for lp in self._loops:  # NumPy's rule: the first loop the inputs cast to safely
                if all(np.can_cast(d, f, "same_kind" if s else "safe")
                       for d, f, s in zip(dtypes, lp.indtypes, scalars)):
                    loop = lp
                    break
        if loop is None and self._dynamic and not self._loops_fixed():
            loop = self._compile_for(dtypes)
        if loop is None:
            raise TypeError("No matching version for ufunc '%s' and input types (%s): the signatures are %s. A "
                            "GPU ufunc needs inputs that cast safely to one of its signatures (NumPy's "
                            "casting='safe'; scalars within their kind)"
                            % (self.__name__, ", ".join(str(d) for d in dtypes), ", ".join(self.types) or "none"))
        self._selection[key] = loop
        return loop

    def _loops_fixed(self):
        return not self._dynamic

    def _compile_for(self, dtypes):
        """A dynamic ufunc's new loop for these input dtypes (the device
        function's inferred return type)."""

        intypes = tuple(_to_type(str(d) if d != np.bool_ else "bool") for d in dtypes)
        self.add(intypes)
        return self._loops[-1]

    # ---- calls -----------------------------------------------------------

    def _kernel(self, loop, scalars, patterns, out_ndim):
        key = (loop.indtypes, scalars, patterns, out_ndim)
        k = self._kernels.get(key)
        if k is None:
            name = "_ufunc_%s" % "".join(c if c.isalnum() else "_" for c in self.__name__)
            src = _kernel_source(name, len(loop.intypes), scalars, patterns, out_ndim)
            glbls = {"_cuda": _cuda_mod, "_core": self._device_core()}
            for i, t in enumerate(loop.intypes):
                glbls["_t%d" % i] = t
            k = self._kernels[key] = compile_kernel(src, name, glbls)
        return k

    def _call_entry(self, *args, out=None, stream=0):
        # __call__ (below, _cuhost._ufunc_call) launches a call like an
        # earlier one with out= on the default stream itself and comes here
        # for every other call. A call like an earlier one (device arrays and scalars with the same
        # kernel types, shapes and strides: the launch fingerprint) runs its
        # cached plan; the commonest case, out= given on the default stream,
        # is one lookup and one launch.
        plan = self._plans.get(_call_key(args, out))
        if plan is None:
            return self._call_general(args, out, stream)
        if out is not None and not stream and plan.convs is None:
            plan.launcher(plan.n, *args, out)
            return out
        return plan.run(args, out, stream)

    __call__ = _ufunc_call(_call_entry)

    def _call_general(self, args, out, stream):
        nin = self._nin
        if nin is None:
            nin = self._nin_from_function()
        if len(args) == nin + 1:
            if out is not None:
                raise ValueError("cannot specify argument 'out' as both positional and keyword")
            out = args[nin]
            args = args[:nin]
        elif len(args) != nin:
            raise TypeError("%s() takes from %d to %d positional arguments but %d were given"
                            % (self.__name__, nin, nin + 1, len(args)))
        return self._call(args, out, stream, _call_key(args, out))

    def _nin_from_function(self):
        return len(inspect.signature(self.py_func).parameters)

    def _call(self, args, out, stream, fast_key=None):
        values = []
        dtypes = []
        scalars = []
        any_device = False
        for a in args:
            if _is_device_array(a) or _has_cai(a):
                a = _as_device_array(a)
                if a.ndim == 0:  # a 0-d device array broadcasts as a 1-element one
                    a = a.reshape(1)
                any_device = True
                values.append(a)
                dtypes.append(a.dtype)
                scalars.append(False)
            elif isinstance(a, (int, float, complex, bool, np.generic)):
                values.append(a)
                dtypes.append(np.asarray(a).dtype)
                scalars.append(True)
            else:
                a = np.asarray(a)
                if a.ndim == 0:
                    values.append(a[()])
                    scalars.append(True)
                else:
                    values.append(a)
                    scalars.append(False)
                dtypes.append(a.dtype)
        scalars = tuple(scalars)
        loop = self._select(tuple(dtypes), scalars)

        shapes = [() if s else v.shape for v, s in zip(values, scalars)]
        shape = broadcast_shapes(shapes)
        out_is_device = out is not None and (_is_device_array(out) or _has_cai(out))
        if out is not None:
            if out_is_device:
                out = _as_device_array(out)
            elif not isinstance(out, np.ndarray):
                raise TypeError("'out' must be an array (a NumPy array or a device array), not %s"
                                % type(out).__name__)
            if out.shape != shape:
                try:
                    broadcast_shapes([shape, out.shape])
                    ok = len(out.shape) >= len(shape) and broadcast_shapes([shape, out.shape]) == out.shape
                except ValueError:
                    ok = False
                if not ok:
                    raise ValueError("non-broadcastable output operand with shape %s doesn't match the "
                                     "broadcast shape %s" % (out.shape, shape))
                shape = out.shape
            if not np.can_cast(loop.outdtype, out.dtype, "same_kind"):
                raise TypeError("Cannot cast ufunc '%s' output from %r to %r with casting rule 'same_kind'"
                                % (self.__name__, loop.outdtype, out.dtype))

        n = 1
        for d in shape:
            n *= d
        # Scalar arguments are cast on the host to the loop's type.
        kargs = []
        for v, s, t in zip(values, scalars, loop.indtypes):
            if s:
                kargs.append(t.type(v))
            elif isinstance(v, np.ndarray):
                if not (v.flags.c_contiguous or v.flags.f_contiguous):
                    v = np.ascontiguousarray(v)
                kargs.append(_to_device(v, stream))
            else:
                kargs.append(v)

        # The device output: the user's device array, or a new one.
        if out_is_device:
            dout = out
        else:
            dout = _device_array(shape if shape else (1,), loop.outdtype if out is None else out.dtype, stream)

        out_ndim = len(shape)
        if all(s or a.shape == shape for a, s in zip(kargs, scalars)) and (
                out_ndim <= 1 or self._all_c_contiguous(kargs, scalars, dout)):
            # Same shapes: one flat index (1-d arrays of any strides, or C-contiguous views).
            patterns = None
            if out_ndim > 1:
                kargs = [a if s else a.reshape(n) for a, s in zip(kargs, scalars)]
                kout = dout.reshape(n)
            else:
                kout = dout
        else:
            kout = dout
            patterns = tuple(None if s else tuple(d == shape[out_ndim - a.ndim + ax] for ax, d in enumerate(a.shape))
                             for a, s in zip(kargs, scalars))
        kernel = self._kernel(loop, scalars, patterns, out_ndim)
        launch(kernel, n, stream, [n, *kargs, kout])
        if fast_key is not None and n > 0 and _plannable(args, out):
            # Device arrays and scalars only: the next call with the same
            # types, shapes and strides goes straight to the launch.
            # Scalars go to the kernel as they are (it casts them to the loop's types).
            convs = tuple(_Reshape(n) if (not s and patterns is None and out_ndim > 1) else None for s in scalars)
            if len(self._plans) > 64:
                self._plans.clear()
            self._plans[fast_key] = _FastPlan(kernel, n, convs, patterns is None and out_ndim > 1, shape,
                                              loop.outdtype)

        if out_is_device:
            return out
        if out is not None:
            dout.copy_to_host(out, stream=stream) if stream else dout.copy_to_host(out)
            return out
        if any_device:
            return dout
        host = dout.copy_to_host(stream=stream) if stream else dout.copy_to_host()
        if out_ndim == 0:
            return host[0]
        return host

    @staticmethod
    def _all_c_contiguous(kargs, scalars, dout):
        return dout.is_c_contiguous() and all(s or a.is_c_contiguous() for a, s in zip(kargs, scalars))

    # ---- reduce ---------------------------------------------------------

    def reduce(self, arg, stream=0):
        """The ufunc folded over a 1-d array (a binary ufunc only)."""
        if self._nin != 2:
            raise ValueError("reduce only supported for binary functions")
        dev = _is_device_array(arg) or _has_cai(arg)
        arr = _as_device_array(arg) if dev else np.asarray(arg)
        if arr.ndim != 1:
            raise ValueError("reduce of '%s' needs a 1-d array, got %d dimensions" % (self.__name__, arr.ndim))
        n = arr.shape[0]
        if n == 0:
            raise TypeError("Reduction on an empty array.")
        loop = self._select((arr.dtype, arr.dtype), (False, False))

        red = self.__dict__.get("_reducer")
        if red is None:
            red = self._reducer = Reduce(self._device_core())
        if arr.dtype != loop.indtypes[0]:
            if dev:
                raise TypeError("reduce of '%s' needs a %s array, got a device array of %s"
                                % (self.__name__, loop.indtypes[0], arr.dtype))
            arr = arr.astype(loop.indtypes[0])
        return red._reduce_no_init(arr, stream)


def _rebuild_ufunc(pyfunc, sigs, identity, dynamic):
    uf = CUDAUFunc(pyfunc, identity=identity)
    for sig in sigs:
        uf.add(sig)
    if not dynamic:
        uf.disable_compile()
    return uf


def _plannable(args, out):
    """True for the calls a _FastPlan serves: device arrays (at least one)
    and scalars, out None or a device array."""
    device = False
    for a in args:
        if type(a) is _DeviceNDArray:
            device = True
        elif not isinstance(a, (int, float, complex, np.generic)):
            return False
    return device and (out is None or type(out) is _DeviceNDArray)


class _Reshape:
    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n

    def __call__(self, a):
        return a.reshape(self.n)


class _FastPlan:
    """A call already resolved: its kernel, work size, argument conversions
    and output; running it is the conversions, the output allocation (when
    out is not given) and one launch."""
    __slots__ = ("kernel", "n", "convs", "flat", "shape", "dtype", "launchers", "launcher")

    def __init__(self, kernel, n, convs, flat, shape, dtype):
        self.kernel = kernel
        self.n = n
        self.convs = None if not flat and all(c is None for c in convs) else convs
        self.flat = flat
        self.shape = shape
        self.dtype = dtype
        self.launchers = {}
        self.launcher = kernel.forall(min(n, resident_threads()))  # on the default stream

    def run(self, args, out, stream):
        dout = out if out is not None else _device_array(self.shape, self.dtype, stream)
        # Keyed by identity (streams may compare equal by handle); the entry keeps its stream alive.
        entry = self.launchers.get(id(stream))
        if entry is not None and entry[0] is stream:
            launcher = entry[1]
        else:
            tasks = min(self.n, resident_threads())
            launcher = self.kernel.forall(tasks, stream=stream) if stream else self.kernel.forall(tasks)
            if len(self.launchers) > 8:
                self.launchers.clear()
            self.launchers[id(stream)] = (stream, launcher)
        if self.convs is None:
            launcher(self.n, *args, dout)
        else:
            kargs = [a if conv is None else conv(a) for conv, a in zip(self.convs, args)]
            launcher(self.n, *kargs, dout.reshape(self.n) if self.flat else dout)
        return dout


def _to_device(a, stream):
    return to_device(a, stream=stream) if stream else to_device(a)


def _device_array(shape, dtype, stream):
    return device_array(shape, dtype=dtype, stream=stream) if stream else device_array(shape, dtype=dtype)
