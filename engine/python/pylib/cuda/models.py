"""numba.cuda.models (also numba.cuda.extending.core_models): data models,
the representation of a type's values in LLVM IR.

An extension type (a ``types.Type`` subclass) gets one with
``@register_model(MyType)`` on a model class: ``StructModel`` (named members,
an LLVM struct of their values), ``OpaqueModel`` (a pointer) or
``PrimitiveModel`` (one llvmlite type). cuhost's own types have the engine's
fixed representation (cuda/_ext/llvm_types.py builds it from the engine's
description); their models here
exist so that extension code can ask for them (``dmm.lookup(types.int32)``).
Models build llvmlite types; llvmlite is imported when a model is made.
"""
from ._ext import llvm_types

__all__ = ["DataModel", "PrimitiveModel", "OpaqueModel", "StructModel", "DataModelManager", "register_model",
           "register_default", "default_manager"]


class DataModel:
    """The LLVM representation of one type's values (numba's DataModel)."""

    def __init__(self, dmm, fe_type):
        self._dmm = dmm
        self._fe_type = fe_type

    @property
    def fe_type(self):
        return self._fe_type

    def get_value_type(self):
        raise NotImplementedError

    def get_data_type(self):
        return self.get_value_type()

    def get_argument_type(self):
        return self.get_value_type()

    def get_return_type(self):
        return self.get_value_type()

    def as_data(self, builder, value):
        return value

    def from_data(self, builder, value):
        return value

    def as_argument(self, builder, value):
        return value

    def from_argument(self, builder, value):
        return value

    def as_return(self, builder, value):
        return value

    def from_return(self, builder, value):
        return value

    def traverse(self, builder):
        return []

    def inner_models(self):
        return []

    def has_nrt_meminfo(self):
        return False

    def contains_nrt_meminfo(self):
        return False

    def __eq__(self, other):
        return type(self) is type(other) and self._fe_type == other._fe_type

    def __hash__(self):
        return hash((type(self), self._fe_type))


class PrimitiveModel(DataModel):
    """Values are one llvmlite type ``be_type``."""

    def __init__(self, dmm, fe_type, be_type):
        super().__init__(dmm, fe_type)
        self.be_type = be_type

    def get_value_type(self):
        return self.be_type


class OpaqueModel(PrimitiveModel):
    """Values are an opaque pointer (i8*)."""

    def __init__(self, dmm, fe_type):
        # Lazy: llvmlite is optional, needed only by extension code generation.
        from llvmlite import ir

        super().__init__(dmm, fe_type, ir.IntType(8).as_pointer())


class StructModel(DataModel):
    """Values are an LLVM struct of named members: [(name, type), ...]."""

    def __init__(self, dmm, fe_type, members):
        super().__init__(dmm, fe_type)
        self._members = tuple(members)
        self._fields = tuple(name for name, _ in self._members)
        self._members_types = tuple(t for _, t in self._members)

    @property
    def field_count(self):
        return len(self._fields)

    def get_member_fe_type(self, name):
        return self._members_types[self.get_field_position(name)]

    def get_field_position(self, field):
        try:
            return self._fields.index(field)
        except ValueError:
            raise KeyError("%s does not have a field named %r" % (self.__class__.__name__, field)) from None

    def get_type(self, pos):
        return self._members_types[pos]

    def get_model(self, pos):
        return self._dmm.lookup(self._members_types[pos])

    def inner_models(self):
        return [self._dmm.lookup(t) for t in self._members_types]

    def get_value_type(self):
        # Lazy: llvmlite is optional, needed only by extension code generation.
        from llvmlite import ir

        return ir.LiteralStructType([self._dmm.lookup(t).get_value_type() for t in self._members_types])

    def get_data_type(self):
        # Lazy: llvmlite is optional, needed only by extension code generation.
        from llvmlite import ir

        return ir.LiteralStructType([self._dmm.lookup(t).get_data_type() for t in self._members_types])

    def get(self, builder, val, pos):
        if isinstance(pos, str):
            pos = self.get_field_position(pos)
        return builder.extract_value(val, [pos])

    def set(self, builder, stval, val, pos):
        if isinstance(pos, str):
            pos = self.get_field_position(pos)
        return builder.insert_value(stval, val, [pos])


class _BuiltinModel(PrimitiveModel):
    """The engine's representation of one of cuhost's own types."""

    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, llvm_types.value_type(fe_type))
        self._data = llvm_types.data_type(fe_type)

    def get_data_type(self):
        return self._data


class DataModelManager:
    """Maps type classes to model classes (numba's DataModelManager)."""

    def __init__(self, handlers=None):
        self._handlers = dict(handlers or {})
        self._cache = {}

    def register(self, fe_type_class, handler):
        self._handlers[fe_type_class] = handler
        self._cache.clear()

    def _handler(self, fe_type):
        for cls in type(fe_type).__mro__:
            if cls in self._handlers:
                return self._handlers[cls]
        return None

    def has_model(self, fe_type):
        return self._handler(fe_type) is not None or not type(fe_type)._cuhost_extension

    def lookup(self, fe_type):
        try:
            return self._cache[fe_type]
        except (KeyError, TypeError):
            pass
        handler = self._handler(fe_type)
        if handler is None:
            if type(fe_type)._cuhost_extension:
                raise NotImplementedError("No data model for %s (register one with "
                                          "numba.cuda.extending.register_model)" % (fe_type,))
            handler = _BuiltinModel
        model = handler(self, fe_type)
        try:
            self._cache[fe_type] = model
        except TypeError:
            pass
        return model

    def __getitem__(self, fe_type):
        return self.lookup(fe_type)

    def copy(self):
        return DataModelManager(self._handlers)


default_manager = DataModelManager()


def register(dmm, typecls):
    """@register(dmm, MyType) on a model class."""

    def wraps(fn):
        dmm.register(typecls, fn)
        return fn

    return wraps


def register_model(typecls):
    """@register_model(MyType) on a model class: values of MyType use it."""
    return register(default_manager, typecls)


register_default = register_model
