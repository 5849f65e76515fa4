"""Extension types as engine types.

A ``types.Type`` subclass defined outside cuhost is registered with the
engine the first time its spelling is needed (a signature, a dtype, a typing
function's result): its data model (models.py) becomes the engine's layout
of its values, and it gets a spelling unique in this process. The spelling is
the type's name when that is free and names no type of cuhost's own, else
the name with "#<n>" appended; the engine prints it in messages and hands it
back to Python, where type_of_spelling() finds the type object again.
"""
import _cuhost

from .. import types as _types
from .._type_spelling import to_type
from ..models import OpaqueModel, StructModel, default_manager
from .llvm_types import abi_size_align

_by_type = {}       # type object -> spelling
_by_spelling = {}   # spelling -> type object
_taken = set()


def _builtin_name(name):
    try:
        t = to_type(name)
    except ValueError:
        return False
    return not type(t)._cuhost_extension and type(t) is not _types.Type


def _unique_spelling(name):
    name = " ".join(str(name).split()) or "extension"
    spelling = name
    n = 1
    while spelling in _taken or _builtin_name(spelling):
        n += 1
        spelling = "%s#%d" % (name, n)
    return spelling


def _describe(ty, model):
    """(model kind, member names, member TypeHandles, llvm text, size, align) for the engine."""

    value_type = model.get_value_type()
    size, align = abi_size_align(model.get_data_type())
    if isinstance(model, StructModel):
        names = tuple(model._fields)
        members = tuple(_types._handle(t) for t in model._members_types)
        return "struct", names, members, str(value_type), size, align
    if isinstance(model, OpaqueModel):
        return "opaque", (), (), str(value_type), size, align
    return "primitive", (), (), str(value_type), size, align


def spelling_of(ty, strict=True):
    """The engine spelling of extension type `ty` (registering it first)."""
    try:
        return _by_type[ty]
    except KeyError:
        pass

    try:
        model = default_manager.lookup(ty)
    except NotImplementedError:
        if strict:
            raise
        return "<%s without a data model>" % (ty.name,)
    spelling = _unique_spelling(ty.name)
    _taken.add(spelling)
    try:
        kind, names, members, llvm_text, size, align = _describe(ty, model)
        _cuhost._register_extension_type(spelling, kind, names, members, llvm_text, size, align)
    except Exception:
        _taken.discard(spelling)
        if strict:
            raise
        return "<%s without a data model>" % (ty.name,)
    _by_type[ty] = spelling
    _by_spelling[spelling] = ty
    return spelling


def type_of_spelling(spelling):
    return _by_spelling.get(spelling)
