"""numba.core compatibility: numba's types, errors and extension API are
numba-cuda's (aliases of cuda.types, cuda.core.errors, cuda.extending; see
cuda/_aliases.py)."""
from . import errors, types  # noqa: F401
