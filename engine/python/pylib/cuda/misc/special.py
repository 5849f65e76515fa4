"""numba.cuda.misc.special: literal_unroll, prange, literally and the gdb hooks (not implemented in cuhost yet)."""
from .._missing import missing as _missing

__all__ = ["literal_unroll", "prange", "literally", "gdb", "gdb_breakpoint", "gdb_init"]
_missing(globals(), " ".join(__all__))
