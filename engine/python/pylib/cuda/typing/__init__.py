"""numba.cuda.typing: function signatures (the typing registries are numba compiler internals).

`signature(return_type, *args)` builds the same Signature objects as
calling a type (`float32(int32, int32)`).
"""
from ._signature import signature  # noqa: F401
