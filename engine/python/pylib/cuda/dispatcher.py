"""numba.cuda.dispatcher: the object @cuda.jit returns.

cuhost's dispatcher is _cuhost.Dispatcher (engine/python/dispatcher.cpp),
numba-cuda's CUDADispatcher. numba-cuda's internal pieces of it (kernel
objects, the launch-configuration helper, caches, compile statistics) have
no Python counterpart in cuhost.
"""
from _cuhost import Dispatcher as CUDADispatcher  # noqa: F401

from ._missing import missing as _missing

_missing(globals(), """
    _Kernel ForAll _LaunchConfiguration CUDACacheImpl CUDACache OmittedArg CompilingCounter _DispatcherBase
    _MemoMixin _CompileStats _FunctionCompiler LiftedCode LiftedLoop LiftedWith ObjModeLiftedWith
""")
