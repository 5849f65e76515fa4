"""numba.cuda.core.imputils: registries of lowering implementations.

``Registry().lower(func, *argtys)`` registers a code generation function
``impl(context, builder, sig, args)`` for calls of `func` whose argument
types match `argtys` (type classes match their instances, type instances
match equal types, ``types.Any`` matches anything, ``types.VarArg(t)`` any
number of trailing arguments); lower_getattr / lower_getattr_generic register
``impl(context, builder, typ, value[, attr])`` for attributes. Every registry
feeds cuhost's one table (cuda/_ext/registry.py): there is no separate target
context to install registries into.
"""
from .._ext import registry as _registry
from .._missing import missing as _missing


class Registry:
    """A registry of lowering implementations (numba's imputils.Registry)."""

    def __init__(self, name="unspecified"):
        self.name = name
        self.functions = []
        self.getattrs = []
        self.setattrs = []
        self.casts = []
        self.constants = []

    def lower(self, func, *argtys):
        def decorate(impl):
            self.functions.append((impl, func, argtys))
            _registry.add_lower_call(func, argtys, impl)
            return impl

        return decorate

    def lower_getattr(self, ty, attr):
        def decorate(impl):
            self.getattrs.append((impl, ty, attr))
            _registry.add_lower_getattr(ty, attr, impl)
            return impl

        return decorate

    def lower_getattr_generic(self, ty):
        def decorate(impl):
            self.getattrs.append((impl, ty, None))
            _registry.add_lower_getattr(ty, None, impl)
            return impl

        return decorate

    def lower_setattr(self, ty, attr):
        def decorate(impl):
            self.setattrs.append((impl, ty, attr))
            _registry.add_lower_setattr(ty, attr, impl)
            return impl

        return decorate

    def lower_setattr_generic(self, ty):
        def decorate(impl):
            self.setattrs.append((impl, ty, None))
            _registry.add_lower_setattr(ty, None, impl)
            return impl

        return decorate

    def lower_cast(self, fromty, toty):
        def decorate(impl):
            self.casts.append((impl, (fromty, toty)))
            _registry.add_lower_cast(fromty, toty, impl)
            return impl

        return decorate

    def lower_constant(self, ty):
        def decorate(impl):
            self.constants.append((impl, (ty,)))
            _registry.add_lower_constant(ty, impl)
            return impl

        return decorate

    def __repr__(self):
        return "Lowering Registry<%s>" % (self.name,)


builtin_registry = Registry("builtin_registry")
lower_builtin = builtin_registry.lower
lower_getattr = builtin_registry.lower_getattr
lower_getattr_generic = builtin_registry.lower_getattr_generic
lower_setattr = builtin_registry.lower_setattr
lower_setattr_generic = builtin_registry.lower_setattr_generic
lower_cast = builtin_registry.lower_cast
lower_constant = builtin_registry.lower_constant


def impl_ret_new_ref(ctx, builder, retty, ret):
    return ret


def impl_ret_borrowed(ctx, builder, retty, ret):
    return ret


def impl_ret_untracked(ctx, builder, retty, ret):
    return ret


_missing(globals(), """
    RegistryLoader user_function user_generator iterator_impl iternext_impl call_getiter call_iternext call_len
    for_iter force_error_model numba_typeref_ctor fix_returning_optional RefType
""")
