"""numba.cuda.args: In/Out/InOut argument hints and argument preparation.

A hint tells the launcher how to move a host array for one launch:
``In(a)`` copies it to the device only, ``Out(a)`` copies it back only,
``InOut(a)`` (what a bare host array gets) both ways. Kernels also accept
argument-preparation extensions (``cuda.jit(extensions=[...])`` or
``kernel.extensions.append(...)``): objects whose ``prepare_args(ty, val,
stream=, retr=)`` returns the (type, value) to launch with and may append
write-back callbacks to ``retr``. The C++ launcher hands a launch here only
when a hint or an extension is present, or, on the GPU, a tuple argument
holds host arrays: those move as a bare host array does (copied in, and
back unless read-only), at any depth (engine/python/launch.cpp).
"""
__all__ = ["ArgHint", "In", "Out", "InOut", "wrap_arg"]


class ArgHint:
    """Base of the argument hints: `value` and how to move it for a launch."""

    def __init__(self, value):
        self.value = value

    def to_device(self, retr, stream=0):
        """The device array to pass for `value`; appends to `retr` the
        callbacks that copy results back after the launch."""
        raise NotImplementedError("ArgHint.to_device")

    @property
    def _numba_type_(self):
        from .typing.typeof import typeof

        return typeof(self.value)

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self.value)


def _auto_device(value, stream, copy):
    """(device array, whether it was converted from host memory)."""
    from . import api

    if api.is_cuda_array(value):
        return api.as_cuda_array(value), False
    if copy:
        return api.to_device(value, stream=stream), True
    return api.device_array_like(value, stream=stream), True


class In(ArgHint):
    """Copied to the device before the launch, never back."""

    def to_device(self, retr, stream=0):
        return _auto_device(self.value, stream, True)[0]


class Out(ArgHint):
    """Not copied in; copied back to the host after the launch."""

    def to_device(self, retr, stream=0):
        devary, converted = _auto_device(self.value, stream, False)
        if converted:
            retr.append(lambda: devary.copy_to_host(self.value, stream=stream))
        return devary


class InOut(ArgHint):
    """Copied to the device before the launch and back after it."""

    def to_device(self, retr, stream=0):
        devary, converted = _auto_device(self.value, stream, True)
        if converted:
            retr.append(lambda: devary.copy_to_host(self.value, stream=stream))
        return devary


def wrap_arg(value, default=InOut):
    """`value` if it is already a hint, else `default(value)`."""
    return value if isinstance(value, ArgHint) else default(value)


def _type_of(value):
    from .typing.typeof import typeof

    if isinstance(value, ArgHint):
        return value._numba_type_
    try:
        return typeof(value)
    except ValueError:
        return None


def _prepare_tuple(value, retr, stream):
    """A tuple argument with its host arrays and hints, at any depth, turned
    into device arrays (write-backs appended to `retr`)."""
    import numpy as np

    items = []
    for item in value:
        if isinstance(item, tuple):
            item = _prepare_tuple(item, retr, stream)
        elif isinstance(item, np.ndarray):
            item = (InOut if item.flags.writeable else In)(item).to_device(retr, stream=stream)
        elif isinstance(item, ArgHint):
            item = item.to_device(retr, stream=stream)
        items.append(item)
    return type(value)(*items) if hasattr(value, "_fields") else tuple(items)


def launch_with_preparation(launcher, args, extensions):
    """Prepares each argument (extensions first, in order, then hints), launches
    with the results and runs the write-backs, in order."""
    stream = launcher.stream or 0
    retr = []
    prepared = []
    for value in args:
        ty = _type_of(value) if extensions else None
        for extension in extensions:
            ty, value = extension.prepare_args(ty, value, stream=stream, retr=retr)
        if isinstance(value, ArgHint):
            value = value.to_device(retr, stream=stream)
        elif isinstance(value, tuple):
            value = _prepare_tuple(value, retr, stream)
        prepared.append(value)
    launcher._launch_prepared(*prepared)
    for write_back in retr:
        write_back()
