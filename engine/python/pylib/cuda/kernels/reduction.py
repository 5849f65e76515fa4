"""numba.cuda.kernels.reduction: cuda.reduce / cuda.Reduce.

Reduce(binop) folds a 1-d array with an associative, commutative binary
function, compiled as a device function. The work is one generated kernel
(compiled by cuda.jit like any kernel) and one launch: each thread folds a
grid-stride slice of the input (a grid-stride loop over the array's size,
which cuhost's compiler unrolls), each block folds its threads' values in
shared memory and stores one partial, and the last block to finish (a
counter taken after a memory fence, as CUDA's threadFenceReduction sample
does) folds the partials with `init` into the result and resets the counter
for the next call. Any size works: a block folds only its threads that hold
a value, so no identity element is needed, and an empty input gives `init`.
"""
import threading as _threading

import numpy as np

import _cuhost

# The package itself: generated kernel source spells cuda.grid() and friends through it.
import cuda as _cuda_mod

from ..api import as_cuda_array, device_array, to_device
from ..compiler import _to_type
from ..cudadrv.devicearray import DeviceNDArray, is_cuda_ndarray
from ._launch import compile_kernel, device_function, resident_threads

_BLOCK = 256

# _mode: 1 combines the result with _init, 2 gives it alone (ufunc.reduce
# has no initial value). _fold folds _sm[0.._m) into _sm[0].
_SOURCE = """\
def {name}(_arr, _partials, _counter, _out, _init, _mode):
    _sm = _cuda.shared.array({block}, _dt)
    _last = _cuda.shared.array(1, _cuda.int32)
    _tid = _cuda.threadIdx.x
    _bs = _cuda.blockDim.x
    _g = _cuda.blockIdx.x * _bs + _tid
    _n = _arr.size
    if _g < _n:
        _acc = _arr[_g]
        for _j in range(_g + _cuda.gridsize(1), _arr.size, _cuda.gridsize(1)):
            _acc = _dt(_core(_acc, _arr[_j]))
        _sm[_tid] = _acc
    _cuda.syncthreads()
    _m = _n - _cuda.blockIdx.x * _bs
    if _m > _bs:
        _m = _bs
    _fold(_sm, _m, _tid)
    _blocks = _cuda.gridDim.x
    if _blocks > 1:
        if _tid == 0:
            _partials[_cuda.blockIdx.x] = _sm[0]
            _cuda.threadfence()
            _last[0] = _cuda.atomic.add(_counter, 0, 1) == _blocks - 1
        _cuda.syncthreads()
        if _last[0] == 0:
            return
        if _tid < _blocks:
            _acc = _partials[_tid]
            for _j in range(_tid + _bs, _blocks, _bs):
                _acc = _dt(_core(_acc, _partials[_j]))
            _sm[_tid] = _acc
        _cuda.syncthreads()
        _m = _blocks
        if _m > _bs:
            _m = _bs
        _fold(_sm, _m, _tid)
    if _tid == 0:
        if _blocks > 1:
            _counter[0] = 0
        if _mode == 1:
            _out[0] = _dt(_core(_init, _sm[0]))
        else:
            _out[0] = _sm[0]


@_cuda.jit(device=True)
def _fold(_sm, _m, _tid):
    while _m > 1:
        _h = (_m + 1) // 2
        if _tid + _h < _m:
            _sm[_tid] = _dt(_core(_sm[_tid], _sm[_tid + _h]))
        _cuda.syncthreads()
        _m = _h
"""


class Reduce:
    """A reduction with a binary function: Reduce(lambda a, b: a + b)(arr)."""

    def __init__(self, functor):
        self._functor = functor
        self._core = None
        self._kernels = {}
        self._plans = {}
        # The repeated call on a whole device array with `res` on the default
        # stream (a loop of reductions): (dtype, size, device, thread, init)
        # -> (launcher, partials, counter, init value), so such a call costs
        # one dictionary lookup and the launch (issue 34: the host work of a
        # call, ~15 us of Python before, delayed the first of a run of calls).
        self._fast = {}

    def _device_core(self):
        if self._core is None:
            f = self._functor
            if isinstance(f, _cuhost.Dispatcher):
                if not f._is_device:
                    raise TypeError("cuda.Reduce needs a binary function or a device function, not the kernel %r"
                                    % (f,))
                self._core = f
            else:
                self._core = device_function(f)
        return self._core

    def _kernel(self, dtype):
        k = self._kernels.get(dtype)
        if k is None:
            name = "_reduce_%s" % "".join(c if c.isalnum() else "_" for c in getattr(self._functor, "__name__",
                                                                                         "fn"))
            src = _SOURCE.format(name=name, block=_BLOCK)
            glbls = {"_cuda": _cuda_mod, "_core": self._device_core(),
                     "_dt": _to_type("bool" if dtype == np.bool_ else str(dtype))}
            k = self._kernels[dtype] = compile_kernel(src, name, glbls)
        return k

    def _launcher(self, dtype, n, stream):
        """(launcher, partials, counter) for n elements on `stream`: the
        configured kernel, the blocks' partials and the last-block counter,
        kept per dtype, grid and stream (work on one stream is ordered, so
        reusing them is safe; each stream, and each thread on the default
        stream, gets its own)."""
        blocks = min((n + _BLOCK - 1) // _BLOCK, max(1, resident_threads() // _BLOCK))
        # The default stream may be per thread: its entries are per thread too.
        key = (dtype, blocks, id(stream), 0 if stream else _threading.get_ident())
        entry = self._plans.get(key)
        if entry is not None and entry[0] is stream:
            return entry[1]

        kernel = self._kernel(dtype)
        kw = {"stream": stream} if stream else {}
        plan = (kernel[blocks, _BLOCK, stream] if stream else kernel[blocks, _BLOCK],
                device_array(blocks, dtype=dtype, **kw), to_device(np.zeros(1, np.int32), **kw))
        if len(self._plans) > 16:
            self._plans.clear()
        self._plans[key] = (stream, plan)  # the entry keeps its stream alive (ids stay unique)
        return plan

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        """Fold the first `size` elements of `arr` (all by default) and
        `init`. With `res` (a device array) the result is written to res[0]
        and None returned; otherwise it is returned on the host."""
        if res is not None and size is None and not stream and type(arr) is DeviceNDArray and arr.ndim == 1:
            try:
                key = (arr.dtype, arr.size, _cuhost._current_device_id(), _threading.get_ident(), init)
                entry = self._fast.get(key)
            except TypeError:  # an unhashable init: the general path
                entry = key = None
            if entry is not None:
                launch, partials, counter, init_v = entry
                launch(arr, partials, counter, res, init_v, 1)
                return None
            if key is not None and arr.size > 0:
                self._run(arr, size, res, init, stream, 1)
                if len(self._fast) > 16:
                    self._fast.clear()
                self._fast[key] = (*self._launcher(arr.dtype, arr.size, stream), arr.dtype.type(init))
                return None
        return self._run(arr, size, res, init, stream, 1)

    def _reduce_no_init(self, arr, stream):
        return self._run(arr, None, None, 0, stream, 2)

    def _run(self, arr, size, res, init, stream, final_mode):
        on_device = is_cuda_ndarray(arr) or (hasattr(arr, "__cuda_array_interface__")
                                             and not isinstance(arr, np.ndarray))
        if not on_device:
            arr = np.asarray(arr)
        elif not is_cuda_ndarray(arr):
            arr = as_cuda_array(arr)
        if arr.ndim != 1:
            contiguous = arr.is_c_contiguous() if on_device else arr.flags.c_contiguous
            if arr.ndim == 0 or not contiguous:
                raise ValueError("cuda.reduce needs a 1-d array (or a C-contiguous one), got shape %s"
                                 % (arr.shape,))
            arr = arr.reshape(arr.size)
        n = arr.shape[0] if size is None else int(size)
        if n < 0 or n > arr.shape[0]:
            raise ValueError("size %d is out of range for an array of %d elements" % (n, arr.shape[0]))
        dtype = arr.dtype
        kw = {"stream": stream} if stream else {}
        if n == 0:
            value = dtype.type(init)
            if res is None:
                return value
            res.copy_to_device(np.array([value], dtype=dtype), **kw)
            return None
        if n < arr.shape[0]:
            arr = arr[:n]  # the kernel folds its whole input (a grid-stride loop over arr.size, unrolled)
        if not on_device:
            arr = to_device(arr, **kw)
        init_v = dtype.type(init)
        launch, partials, counter = self._launcher(dtype, n, stream)
        out = res if res is not None else device_array(1, dtype=dtype, **kw)
        launch(arr, partials, counter, out, init_v, final_mode)
        if res is not None:
            return None
        host = out.copy_to_host(**kw)
        if stream:
            stream.synchronize()
        return host[0]
