"""Placeholders for numba-cuda names that cuhost does not implement yet.

numba-cuda code imports many names at module level (``from numba.cuda.random
import xoroshiro128p_uniform_float32``). So that such modules still import,
each unimplemented name is bound to a placeholder object: importing it works,
*using* it -- calling it, reading an attribute, indexing, iterating,
isinstance, subclassing it and instantiating the subclass -- raises
NotImplementedError naming it. A placeholder never returns a value, so nothing
can silently compute a wrong answer. Inside a kernel the compiler shows its
repr, which says the same thing.

    missing(globals(), "create_xoroshiro128p_states xoroshiro128p_uniform_float32")

binds the names in a module; ``missing_getattr(__name__)`` gives a module
``__getattr__`` for modules where *every* name is unimplemented.
"""
import sys

__all__ = ["NotImplementedInCuhost", "missing", "missing_getattr", "display_name"]


def display_name(module_name):
    """The path users know a module by: cuhost's `cuda.X` is numba-cuda's `numba.cuda.X`."""
    if module_name == "cuda" or module_name.startswith("cuda."):
        return "numba." + module_name
    return module_name


class NotImplementedInCuhost:
    """A numba-cuda name that cuhost has no implementation of yet."""

    def __init__(self, qualname, note=""):
        d = self.__dict__
        d["_qualname"] = qualname
        d["_note"] = note
        d["__module__"], _, d["__name__"] = qualname.rpartition(".")
        d["__qualname__"] = d["__name__"]
        d["__doc__"] = "%s is not implemented in cuhost yet%s" % (qualname, note)

    def _fail(self, *args, **kwargs):
        raise NotImplementedError("%s is not implemented in cuhost yet%s" % (self._qualname, self._note))

    # Every use fails with the same message.
    __call__ = __getitem__ = __iter__ = __len__ = __contains__ = __bool__ = __enter__ = __instancecheck__ = \
        __subclasscheck__ = __int__ = __float__ = __index__ = _fail

    def __getattr__(self, name):
        # Dunder and private probes (hasattr(x, "__wrapped__"), pickling, the
        # compiler's array-interface checks) must see a plain AttributeError.
        if name.startswith("_"):
            raise AttributeError(name)
        self._fail()

    def __setattr__(self, name, value):
        self._fail()

    def __mro_entries__(self, bases):
        # `class MyPass(FunctionPass)` at module level still defines the
        # class; creating an instance of it is the use that fails.
        placeholder = self

        def __new__(cls, *args, **kwargs):
            placeholder._fail()

        return (type(self.__name__, (), {"__new__": __new__, "__doc__": self.__doc__,
                                          "__module__": self.__module__}),)

    def __repr__(self):
        return "<%s: not implemented in cuhost yet>" % self._qualname

    def __reduce__(self):
        self._fail()


def missing(module_globals, names, note="", prefix=None):
    """Bind each of the space-separated `names` in a module to a placeholder
    shown as `prefix.name` (default: the module's numba-cuda path)."""
    prefix = prefix or display_name(module_globals["__name__"])
    for name in names.split():
        module_globals[name] = NotImplementedInCuhost(prefix + "." + name, note)


def missing_getattr(module_name, note=""):
    """A module-level __getattr__ for a module that cuhost does not implement
    at all: every non-dunder name is a placeholder (made once, then cached)."""

    prefix = display_name(module_name)

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError("module %r has no attribute %r" % (module_name, name))
        value = NotImplementedInCuhost(prefix + "." + name, note)
        setattr(sys.modules[module_name], name, value)
        return value

    return __getattr__
