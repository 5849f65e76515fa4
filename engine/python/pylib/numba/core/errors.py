"""numba.core.errors compatibility: the exception classes scripts catch."""
from cuda import TypingError, UnsupportedError, CudaError  # noqa: F401

NumbaError = CudaError
