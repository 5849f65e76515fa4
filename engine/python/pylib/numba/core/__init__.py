"""numba.core compatibility: types and errors map to cuhost's."""
from cuda import types  # noqa: F401
from . import errors  # noqa: F401
