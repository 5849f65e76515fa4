"""numba.cuda.fp16: half-precision (float16) device functions.

Each function stands for an engine intrinsic (engine/sema/typing/half.cpp):
arguments convert to float16 and the result is float16 (bool for the
comparisons). Inside kernels the arithmetic compiles to native f16
instructions on the GPU and to correctly rounded float16 on the CPU backend.
"""
from ._device_only import define as _define

__all__ = _define(globals(), __name__, "cuda.fp16.", """
    hadd hsub hmul hdiv hneg habs hfma
    hsin hcos hexp hexp2 hexp10 hlog hlog2 hlog10 hsqrt hrsqrt hrcp hceil hfloor htrunc hrint
    heq hne hgt hge hlt hle hmax hmin
""")
