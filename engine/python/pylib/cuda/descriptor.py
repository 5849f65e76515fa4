"""numba.cuda.descriptor: the CUDA target's descriptor, `cuda_target`.

Its typing context is the one extension typing code sees (_ext/resolve.py:
can_convert, unify_types, resolve_value_type). cuhost has no numba target
context (code is generated in C++, not through llvmlite), so
`cuda_target.target_context` is a placeholder that raises
NotImplementedError naming it when used.
"""
from ._ext.resolve import typing_context as _typing_context
from ._missing import NotImplementedInCuhost as _Missing

__all__ = ["CUDATarget", "cuda_target"]

_NOTE = " (cuhost compiles kernels in C++ and has no numba compiler internals)"


class CUDATarget:
    """numba-cuda's CUDATarget: the typing and target contexts of the "cuda" target."""

    def __init__(self, name):
        self._name = name
        self._target_context = _Missing("numba.cuda.descriptor.cuda_target.target_context", _NOTE)

    @property
    def typing_context(self):
        return _typing_context

    @property
    def target_context(self):
        return self._target_context


cuda_target = CUDATarget("cuda")
