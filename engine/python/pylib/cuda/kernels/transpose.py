"""numba.cuda.kernels.transpose: device-array transpose (not implemented in cuhost yet)."""
from .._missing import missing as _missing

_missing(globals(), "transpose")
