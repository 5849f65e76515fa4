"""numba.cuda.fp16: half-precision (float16) device functions.

cuhost kernels have no float16 type yet, so every function of this module
(hadd, hmul, hsin, __float2half_rn, ...) raises NotImplementedError when used.
"""
from ._missing import missing_getattr as _missing_getattr

__getattr__ = _missing_getattr(__name__, " (cuhost kernels have no float16 type yet)")
