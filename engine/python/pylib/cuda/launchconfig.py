"""numba.cuda.launchconfig: the launch configuration seen while compiling.

A launch that has to compile a new specialization calls the dispatcher's
``_compile_for_args(*args)`` with the launcher (``kernel[grid, block]``) as
this thread's current launch configuration (engine/python/launch_config.cpp):
code that wraps ``_compile_for_args`` or runs during that compilation can
read the grid, block, shared memory and arguments of the launch. Outside such
a compilation there is none.
"""
import contextlib as _contextlib
import functools as _functools
import types as _pytypes

import _cuhost

__all__ = ["current_launch_config", "ensure_current_launch_config", "capture_compile_config"]


def current_launch_config():
    """The launcher whose launch is compiling on this thread, or None."""
    return _cuhost._current_launch_config()


def ensure_current_launch_config():
    """The current launch configuration; RuntimeError when there is none."""
    config = current_launch_config()
    if config is None:
        raise RuntimeError("No launch config set for this thread")
    return config


@_contextlib.contextmanager
def capture_compile_config(dispatcher):
    """Records, in the yielded dict's "config", the launch configuration of a
    compilation of `dispatcher` triggered by a launch inside the block (it
    stays None when nothing compiles)."""
    if dispatcher is None:
        raise TypeError("dispatcher is required")
    record = {"config": None}
    missing = object()
    saved = dispatcher.__dict__.get("_compile_for_args", missing)
    original = dispatcher._compile_for_args

    @_functools.wraps(original)
    def wrapped(self, *args, **kws):
        record["config"] = current_launch_config()
        return original(*args, **kws)

    dispatcher._compile_for_args = _pytypes.MethodType(wrapped, dispatcher)
    try:
        yield record
    finally:
        if saved is missing:
            del dispatcher._compile_for_args
        else:
            dispatcher._compile_for_args = saved
