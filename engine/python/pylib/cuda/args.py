"""numba.cuda.args: In/Out/InOut argument hints for kernel launches.

cuhost's launcher copies NumPy arguments to the device and back itself and
does not read these hints yet: they raise NotImplementedError when used.
"""
from ._missing import missing as _missing

__all__ = ["In", "Out", "InOut"]
_missing(globals(), "In Out InOut ArgHint wrap_arg")
