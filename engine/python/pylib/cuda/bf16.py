"""numba.cuda.bf16: bfloat16 device functions and the bfloat16 type.

cuhost kernels have no bfloat16 type yet, so every name of this module
(bfloat16, hadd, float32_to_bfloat16_rn, ...) raises NotImplementedError when used.
"""
from ._missing import missing_getattr as _missing_getattr

__getattr__ = _missing_getattr(__name__, " (cuhost kernels have no bfloat16 type yet)")
