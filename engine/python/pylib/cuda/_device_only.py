"""Device-only functions written in Python: objects that stand for an engine
intrinsic inside kernels (the compiler reads ``_cuhost_intrinsic``) and that
raise a clear error when called on the host, as numba-cuda's do."""

__all__ = ["device_function", "define"]


class _DeviceFunction:

    def __init__(self, module, name, key, doc=None):
        self._cuhost_intrinsic = key
        self.__name__ = self.__qualname__ = name
        self.__module__ = module
        self.__doc__ = doc

    def __call__(self, *args, **kwargs):
        raise TypeError("%s.%s() can only be called inside a @cuda.jit function" % (
            self.__module__.replace("cuda.", "numba.cuda.", 1) if self.__module__.startswith("cuda.")
            else self.__module__, self.__name__))

    def __repr__(self):
        return "<cuda device function %s.%s>" % (self.__module__, self.__name__)


def device_function(module, name, key):
    return _DeviceFunction(module, name, key)


def define(namespace, module, prefix, names):
    """Binds each of `names` (a whitespace-separated string) in `namespace` to
    a device function keyed ``prefix + name``; returns the list of names."""
    out = names.split()
    for n in out:
        namespace[n] = _DeviceFunction(module, n, prefix + n)
    return out
