"""numba.cuda.kernels.reduction: cuda.reduce / cuda.Reduce (not implemented in cuhost yet)."""
from .._missing import missing as _missing

_missing(globals(), "Reduce")
