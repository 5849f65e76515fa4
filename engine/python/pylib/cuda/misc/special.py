"""numba.cuda.misc.special: literal_unroll, and prange, literally and the gdb hooks (not implemented in cuhost yet).

`literal_unroll(tup)` marks a `for` loop over a tuple whose elements have
different types: the compiler emits one copy of the loop body per element
(sema/unroll.cpp). On the host, as in numba, it returns its argument.
"""
from .._missing import missing as _missing

__all__ = ["literal_unroll", "prange", "literally", "gdb", "gdb_breakpoint", "gdb_init"]  # noqa: F822  (_missing below)


def literal_unroll(container):
    """Iterate a heterogeneous tuple in a kernel's for loop (the identity on the host)."""
    return container


literal_unroll._cuhost_intrinsic = "cuda.literal_unroll"

_missing(globals(), "prange literally gdb gdb_breakpoint gdb_init")
