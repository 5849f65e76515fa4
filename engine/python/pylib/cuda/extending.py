"""numba.cuda.extending: numba's extension API for the CUDA target
(also numba.extending and numba.core.extending inside cuhost).

High level: @overload, @overload_method, @overload_attribute and
@register_jitable give kernels Python implementations, compiled as device
functions for the argument types of each call. Low level: typeof_impl,
type_callable, register_model (models.py), make_attribute_wrapper,
lower_builtin / lower_getattr (core/imputils.py) and @intrinsic generate the
LLVM IR of an operation with llvmlite. Registrations live in
cuda/_ext/registry.py; the engine's typing asks cuda/_ext/bridge.py.
"""
import collections as _collections
import functools as _functools
import weakref as _weakref

import _cuhost

from . import (
    _aliases,
    models,  # noqa: F401
    models as core_models,  # noqa: F401  (numba's name for the data-model module)
    types,
)
from ._ext import registry as _registry, resolve as _resolve
from ._missing import missing as _missing
from .core.imputils import (  # noqa: F401
    lower_builtin,
    lower_cast,
    lower_constant,
    lower_getattr,
    lower_getattr_generic,
    lower_setattr,
    lower_setattr_generic,
)
from .dispatcher import _FunctionPayload
from .models import register_model  # noqa: F401
from .typing.templates import bound_function, infer, infer_getattr, infer_global  # noqa: F401
from .typing.typeof import typeof_impl  # noqa: F401


def _check_target(target, what):
    if target is not None and _registry.target_rank(target) is None and target not in ("cpu", "npyufunc"):
        raise ValueError("%s: unknown target %r" % (what, target))


# numba's signature: jit_options={} is only read (OverloadCandidate copies it).
def overload(func, jit_options={}, strict=True, inline="never", prefer_literal=False, target="generic",  # noqa: B006
             **kwargs):
    """@overload(func): the decorated typing function, called with the argument
    types of a call of `func` in a kernel, returns its implementation (a
    Python function with the same signature) or None when it does not apply."""
    _check_target(target, "overload")
    target = kwargs.pop("hardware", target)

    def decorate(typing_func):
        _registry.add_callable(func, _resolve.OverloadCandidate(
            typing_func, target=target, prefer_literal=prefer_literal, strict=strict, inline=inline,
            jit_options=jit_options))
        return typing_func

    return decorate


def register_jitable(*args, **kwargs):
    """@register_jitable: the function is also compiled into kernels that call it
    (and stays a plain Python function on the host)."""

    def wrap(fn):
        _registry.add_callable(fn, _resolve.JitableCandidate(fn, kwargs))
        return fn

    if kwargs:
        return wrap
    return wrap(*args)


def overload_attribute(typ, attr, **kwargs):
    """@overload_attribute(Type, name): typing_func(ty) returns impl(obj) giving `obj.name`."""
    _check_target(kwargs.get("target"), "overload_attribute")

    def decorate(typing_func):
        _registry.add_attribute(typ, attr, _resolve.OverloadAttributeCandidate(
            typing_func, target=kwargs.get("target", "generic"), jit_options=kwargs.get("jit_options")))
        return typing_func

    return decorate


def overload_method(typ, attr, **kwargs):
    """@overload_method(Type, name): typing_func(self, *args) returns impl(self, *args)
    implementing `value.name(*args)` for values of Type."""
    _check_target(kwargs.get("target"), "overload_method")

    def decorate(typing_func):
        _registry.add_attribute(typ, attr, _resolve.OverloadMethodCandidate(
            typing_func, target=kwargs.get("target", "generic"), prefer_literal=kwargs.get("prefer_literal", False),
            strict=kwargs.get("strict", True), inline=kwargs.get("inline", "never"),
            jit_options=kwargs.get("jit_options")))
        return typing_func

    return decorate


def overload_classmethod(typ, attr, **kwargs):
    raise NotImplementedError("numba.cuda.extending.overload_classmethod is not implemented in cuhost yet "
                              "(kernels cannot call methods of type objects)")


def make_attribute_wrapper(typeclass, struct_attr, python_attr):
    """`value.python_attr` reads member `struct_attr` of the StructModel of typeclass's values."""
    if not isinstance(typeclass, type) or not issubclass(typeclass, types.Type):
        raise TypeError("typeclass should be a Type subclass, got %s" % (typeclass,))
    _registry.add_attribute(typeclass, python_attr, _resolve.AttributeWrapperCandidate(struct_attr))


def type_callable(func):
    """@type_callable(func): typing_func(context) returns typer(*arg types) giving
    the return type (or a signature) of calls of `func`; lower_builtin(func, ...)
    gives their code."""

    def decorate(typing_func):
        _registry.add_callable(func, _resolve.TypeCallableCandidate(func, typing_func))
        return typing_func

    return decorate


class _Intrinsic:
    """What @intrinsic makes: callable from kernels only."""

    _memo = _weakref.WeakValueDictionary()
    # The last deserialized intrinsics stay in _memo even without other references.
    _recent = _collections.deque(maxlen=128)

    def __init__(self, name, defn, prefer_literal=False, **kwargs):
        self._ctor_kwargs = kwargs
        self._name = name
        self._defn = defn
        self._prefer_literal = prefer_literal
        self._target = kwargs.get("target", "generic")
        self._uuid_value = None
        _functools.update_wrapper(self, defn)
        # numba's __module__: the module as the user imported it (numba.cuda.X, not cuhost's cuda.X).
        self.__module__ = _aliases.imported_name(getattr(defn, "__module__", None))

    @property
    def _uuid(self):
        if self._uuid_value is None:
            import uuid  # only here: a fresh process need not import it (uuid imports platform)

            self._set_uuid(str(uuid.uuid1()))
        return self._uuid_value

    def _set_uuid(self, u):
        assert self._uuid_value is None
        self._uuid_value = u
        self._memo[u] = self
        self._recent.append(self)

    def _register(self):
        _registry.add_callable(self, _resolve.IntrinsicCandidate(self))

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"{self} is not usable in pure-python")

    def __repr__(self):
        return f"<intrinsic {self._name}>"

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_Intrinsic._rebuild, (self._uuid, self._name, _FunctionPayload(self._defn)))

    @classmethod
    def _rebuild(cls, uuid, name, defn):
        try:
            return cls._memo[uuid]
        except KeyError:
            llc = cls(name=name, defn=defn)
            llc._register()
            llc._set_uuid(uuid)
            return llc


def intrinsic(*args, **kwargs):
    """@intrinsic: defn(typingctx, *arg types) returns (signature, codegen) with
    codegen(context, builder, signature, args) building the LLVM IR (llvmlite)
    of a call; the decorated object is callable from kernels."""

    def make(func):
        llc = _Intrinsic(getattr(func, "__name__", str(func)), func, **kwargs)
        llc._register()
        return llc

    if not kwargs:
        return make(*args)
    return make


def is_jitted(function):
    """Whether `function` is a cuhost dispatcher (@cuda.jit)."""

    return isinstance(function, _cuhost.Dispatcher)


class SentryLiteralArgs(_collections.namedtuple("_SentryLiteralArgs", ["literal_args"])):
    """numba's check that some arguments are literals (cuhost specializes on literal values already)."""

    def for_function(self, func):
        return BoundLiteralArgs(self, func)

    def for_pysig(self, pysig):
        return BoundLiteralArgs(self, pysig)


class BoundLiteralArgs(_collections.namedtuple("_BoundLiteralArgs", ["sentry", "target"])):
    def bind(self, *args, **kwargs):
        return None


def sentry_literal_args(pysig, literal_args, args, kwargs):
    return None


_missing(globals(), """
    box unbox reflect NativeValue as_numba_type get_cython_function_address include_path
""")
