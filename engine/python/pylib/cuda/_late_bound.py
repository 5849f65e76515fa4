"""Binds the late-bound pieces of pylib's lowest type modules.

cuda.types, cuda._type_spelling and cuda._ext.llvm_types each need, at call
time, a piece whose home is built on top of them: an extension type's
spelling and type object (cuda/_ext/typeinfo.py), a dtype's type object
(cuda/np/numpy_support.py), an extension type's data model (cuda/models.py).
Each lower module owns a slot for its piece (bind_late); this module, above
all of them, fills the slots when `cuda` is imported, so no module imports
one built on it and the import graph has no circle.
"""
from . import _type_spelling, types
from ._ext import llvm_types


def _extension_spelling(ty, strict):
    # Lazy: typeinfo is needed only by scripts that define extension types.
    from ._ext import typeinfo

    return typeinfo.spelling_of(ty, strict)


def _extension_type(spelling):
    # Lazy: typeinfo is needed only by scripts that define extension types.
    from ._ext import typeinfo

    return typeinfo.type_of_spelling(spelling)


def _type_of_dtype(dtype):
    # At call time: numpy_support is imported later in cuda/__init__.py, which binds this module first.
    from .np.numpy_support import from_dtype

    return from_dtype(dtype)


def _data_model_of(ty):
    # At call time: models is imported later in cuda/__init__.py, which binds this module first.
    from .models import default_manager

    return default_manager.lookup(ty)


types.bind_late(_extension_spelling, _type_of_dtype)
_type_spelling.bind_late(_extension_type)
llvm_types.bind_late(_data_model_of, _extension_type)
