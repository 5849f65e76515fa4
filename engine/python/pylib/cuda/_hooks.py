"""The hooks through which the C++ engine calls Python (engine/python/python_hooks.h).

C++ never imports a pylib module or calls a private method: each object it
needs is installed here, once, into a named slot of `_cuhost` when `cuda`
is imported. The slot names and what each must do are listed in
python_hooks.h and docs/DESIGN.md ("The Python seam").
"""
import _cuhost

from . import args, config
from ._ext import bridge
from ._type_spelling import from_handle
from .compiler import jit as _jit
from .core import errors
from .core._cuda_python import ObjectCode
from .cudadrv import devicearray
from .kernels.transpose import transpose
from .typing.typeof import typeof


def _numba_device_function(dispatcher):
    """The device function a kernel calls for numba's @njit `dispatcher`: as
    numba-cuda does, its Python source compiled as a device function (one
    per dispatcher, kept on it)."""
    device = dispatcher.__dict__.get("_cuhost_device_function")
    if device is None:
        device = _jit(device=True)(dispatcher.py_func)
        dispatcher._cuhost_device_function = device
    return device


def _compile_for_args(dispatcher, arguments):
    # Looked up on the instance each time: user code may wrap it (cuda.launchconfig).
    return dispatcher._compile_for_args(*arguments)


def _function_cache(dispatcher):
    from .core import caching  # loaded at the first cache=True compile (start-up time)

    return caching.function_cache(dispatcher)


class _LiveReload:
    """cuda._live (live kernels), imported at the first reload: scripts that
    are not followed never load it."""

    def __getattr__(self, name):
        from . import _live

        return getattr(_live, name)


def _device_dispatcher(host_dispatcher):
    return host_dispatcher._device_dispatcher()


def _fold_arguments(host_dispatcher, positional, keywords):
    return host_dispatcher._fold_arguments(positional, keywords)


def _debug_dumps(dispatcher, handles):
    return dispatcher._debug_dumps(handles)


def signatures_from_handles(signatures):
    return [tuple(from_handle(h) for h in sig) for sig in signatures]


def install():
    _cuhost.install_hooks(
        launch_preparation=args.launch_with_preparation,
        arg_hint_class=args.ArgHint,
        compile_for_args=_compile_for_args,
        device_dispatcher=_device_dispatcher,
        fold_arguments=_fold_arguments,
        debug_dumps=_debug_dumps,
        signatures_from_handles=signatures_from_handles,
        record_from_view=devicearray.record_from_view,
        array_gpu_data=devicearray._array_gpu_data,
        array_device_ctypes_pointer=devicearray._array_device_ctypes_pointer,
        array_get_ipc_handle=devicearray._array_get_ipc_handle,
        array_split=devicearray._array_split,
        typeof_fallback=typeof,
        transpose=transpose,
        numba_device_function=_numba_device_function,
        object_code_namespace=ObjectCode,
        config=config,
        performance_warning=errors.NumbaPerformanceWarning,
        debug_info_warning=errors.NumbaDebugInfoWarning,
        numba_warning=errors.NumbaWarning,
        lowering_error=errors.LoweringError,
        extension_bridge=bridge,
        function_cache=_function_cache,
        live_reload=_LiveReload(),
    )
