"""numba.cuda.cg: cooperative groups (grid-wide synchronization). Not implemented in cuhost yet."""
from ._missing import missing as _missing

_missing(globals(), "this_grid GridGroup")
