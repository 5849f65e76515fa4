"""numba.core compatibility: numba's types, errors and extension API are
numba-cuda's (aliases of cuda.types, cuda.core.errors, cuda.extending; see
cuda/_aliases.py)."""
from . import _host_values, errors, types  # noqa: F401  (_host_values installs a hook)
