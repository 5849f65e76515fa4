"""numba.cuda.typing.templates: signatures and numba's typing templates.

cuhost types its own functions in C++ (engine/sema/typing). Templates are how
extension code types what it adds: a ConcreteTemplate lists signatures, an
AbstractTemplate computes one in ``generic(self, args, kws)``, a
CallableTemplate returns a typer from ``generic(self)``, and an
AttributeTemplate gives attribute types through ``resolve_<name>(self, ty)``
(methods through @bound_function). Registering a template (Registry,
infer, infer_global, infer_getattr, cudadecl.registry) puts it into
cuhost's one table (cuda/_ext/registry.py); the implementation comes from
the lowering registries (core/imputils.py).
"""
import inspect as _inspect

from .. import types
from .._ext import registry as _registry, resolve as _resolve
from .._missing import missing as _missing
from ..types import Signature
from ._signature import signature

__all__ = ["Signature", "signature", "FunctionTemplate", "AbstractTemplate", "ConcreteTemplate", "CallableTemplate",
           "AttributeTemplate", "bound_function", "Registry", "infer", "infer_global", "infer_getattr",
           "builtin_registry"]


class FunctionTemplate:
    """Base of the call templates; `key` is what the template types."""

    unsafe_casting = True
    exact_match_required = False
    prefer_literal = False
    metadata = {}

    def __init__(self, context):
        self.context = context

    def get_impl_key(self, sig):
        return type(self).key

    def _cuhost_select(self, args, kws):
        # How a call is matched against this template (cuda/_ext/resolve.py).
        return _resolve.select_generic(self, args, kws)


class AbstractTemplate(FunctionTemplate):
    """``generic(self, args, kws)`` returns the signature of a call, or None."""


class ConcreteTemplate(FunctionTemplate):
    """``cases``: the signatures a call may match."""

    def _cuhost_select(self, args, kws):
        return _resolve.select_concrete(self, args, kws)


class CallableTemplate(FunctionTemplate):
    """``generic(self)`` returns a typer called with the argument types."""

    def _cuhost_select(self, args, kws):
        return _resolve.select_callable(self, args, kws)


class AttributeTemplate:
    """``key``: the type (class or instance); ``resolve_<name>(self, ty)`` the type of ``value.<name>``."""

    def __init__(self, context):
        self.context = context

    def resolve(self, value, attr):
        fn = getattr(self, "resolve_%s" % attr, None)
        if fn is not None:
            return fn(value)
        if self.generic_resolve is NotImplemented:
            return None
        return self.generic_resolve(value, attr)

    generic_resolve = NotImplemented


class _MethodTemplate:
    """The typing of one bound method (what @bound_function makes)."""

    def __init__(self, key, resolver, owner, this):
        self.key = key
        self._resolver = resolver
        self._owner = owner
        self._this = this

    def generic_for(self, args, kws):
        sig = self._resolver(self._owner, self._this, tuple(args), dict(kws))
        if sig is not None and sig.recvr is None:
            sig = sig.replace(recvr=self._this)
        return sig


def bound_function(template_key):
    """Turns ``resolve_<name>(self, ty, args, kws) -> signature`` of an
    AttributeTemplate into a method; its code is lower_builtin(template_key, ...)
    with the receiver as the first argument."""

    def wrapper(method_resolver):
        def attribute_resolver(self, ty):
            return types.BoundFunction(_MethodTemplate(template_key, method_resolver, self, ty), ty)

        attribute_resolver.__name__ = method_resolver.__name__
        attribute_resolver.__doc__ = method_resolver.__doc__
        return attribute_resolver

    return wrapper


def _register_function_template(key, template):
    if key is None or isinstance(key, (str, types.Type)):
        return  # method keys ("array.foo") are reached through bound functions
    _registry.add_callable(key, _resolve.TemplateCandidate(template))


class Registry:
    """A registry of typing declarations (numba's templates.Registry)."""

    def __init__(self):
        self.functions = []
        self.attributes = []
        self.globals = []

    def register(self, item):
        self.functions.append(item)
        _register_function_template(getattr(item, "key", None), item)
        return item

    def register_attr(self, item):
        self.attributes.append(item)
        _registry.add_attribute(item.key, None, _resolve.AttributeTemplateCandidate(item))
        return item

    def register_global(self, val=None, typ=None, **kwargs):
        """register_global(value, types.Function(template)), or
        @register_global(value) on a template class."""
        if typ is not None:
            self.globals.append((val, typ))
            for template in getattr(typ, "templates", ()):
                _registry.add_callable(val, _resolve.TemplateCandidate(template))
            return None
        typing_key = kwargs.pop("typing_key", val)

        def decorate(cls):
            template = type(cls.__name__, (cls,), {"key": typing_key})
            self.globals.append((val, types.Function(template)))
            _registry.add_callable(val, _resolve.TemplateCandidate(template))
            return cls

        return decorate


builtin_registry = Registry()
infer = builtin_registry.register
infer_getattr = builtin_registry.register_attr
infer_global = builtin_registry.register_global


def make_concrete_template(name, key, signatures):
    return type(name, (ConcreteTemplate,), {"key": key, "cases": list(signatures)})


def make_callable_template(key, typer, recvr=None):
    def generic(self):
        return typer

    return type("CallableTemplate(%s)" % (key,), (CallableTemplate,), {"key": key, "generic": generic, "recvr": recvr})


def fold_arguments(pysig, args, kws, normal_handler, default_handler, stararg_handler):
    """numba's folding of positional and keyword arguments into parameter order."""
    ba = pysig.bind(*args, **kws)
    out = []
    for i, (name, param) in enumerate(pysig.parameters.items()):
        if name in ba.arguments:
            value = ba.arguments[name]
            if param.kind == param.VAR_POSITIONAL:
                out.append(stararg_handler(i, param, value))
            else:
                out.append(normal_handler(i, param, value))
        elif param.default is not _inspect.Parameter.empty:
            out.append(default_handler(i, param, param.default))
        elif param.kind == param.VAR_POSITIONAL:
            out.append(stararg_handler(i, param, ()))
    return tuple(out)


_missing(globals(), """
    BaseRegistryLoader RegistryLoader make_overload_template make_overload_attribute_template
    make_overload_method_template make_intrinsic_template
""")
