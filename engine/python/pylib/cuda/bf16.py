"""numba.cuda.bf16: the bfloat16 type and its device functions.

``bfloat16`` is the type (``bfloat16(x)`` converts inside kernels, rounding
to nearest even); the functions stand for engine intrinsics
(engine/sema/typing/half.cpp): arithmetic (``_rn`` rounds to nearest, ``_sat``
clamps to [0, 1]), comparisons, NaN/inf tests and the conversions with an
explicit rounding mode (``rn`` nearest even, ``rz`` toward zero, ``rd`` down,
``ru`` up). Results are the same bits on the GPU and on the CPU backend.
"""
from ._device_only import define as _define
from .types import bfloat16

_modes = ("rn", "rz", "rd", "ru")
_ints = ("int16", "uint16", "int32", "uint32", "int64", "uint64")
_conversions = ["bfloat16_to_int8_rz", "bfloat16_to_uint8_rz", "bfloat16_as_int16", "int16_as_bfloat16",
                "bfloat16_as_uint16", "uint16_as_bfloat16", "bfloat16_to_float32", "float32_to_bfloat16",
                "float64_to_bfloat16"]
_conversions += ["float32_to_bfloat16_" + m for m in _modes]
for _t in _ints:
    _conversions += ["%s_to_bfloat16_%s" % (_t, m) for m in _modes]
    _conversions += ["bfloat16_to_%s_%s" % (_t, m) for m in _modes]

__all__ = ["bfloat16", *_define(globals(), __name__, "cuda.bf16.", """
    habs hadd hsub hmul hadd_rn hsub_rn hmul_rn hdiv hadd_sat hsub_sat hmul_sat hfma hfma_sat hneg hfma_relu
    heq hne hge hgt hle hlt hmax hmin hmax_nan hmin_nan hisnan hisinf
    htrunc hceil hfloor hrint hsqrt hrsqrt hrcp hlog hlog2 hlog10 hcos hsin hexp hexp2 hexp10 htanh htanh_approx
""" + " ".join(_conversions))]
