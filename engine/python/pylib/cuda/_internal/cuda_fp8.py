"""numba.cuda._internal.cuda_fp8: the bindings of cuda_fp8.h numba-cuda
generates. fp8_e5m2, fp8_e4m3 and fp8_e8m0 are one-byte storage floats
(constructed and read with casts: ``fp8_e4m3(x)``, ``float32(v)``); the
``cvt_*`` functions convert to and from raw storage bytes (uint8) and
bfloat16_raw values. One implementation: engine/sema/typing/fp8.cpp and
engine/codegen/lowering/fp8.cpp, the same bits on the GPU and the CPU."""
import enum as _enum

from .._device_only import define as _define
from ..types import Scalar as _Scalar


class _StorageFloat(_Scalar):
    """A storage-only float type: usable in kernels; NumPy has no dtype for it."""
    __slots__ = ()

    @property
    def __name__(self):
        return self._cuhost_type

    @property
    def bitwidth(self):
        return 16 if self._cuhost_type == "bfloat16_raw" else 8

    def __call__(self, *args):
        if args and not any(isinstance(a, _Scalar) for a in args):
            raise TypeError("%s(x) can only be used inside a @cuda.jit function" % self._cuhost_type)
        return super().__call__(*args)


fp8_e5m2 = _StorageFloat("fp8_e5m2", "uint8")
fp8_e4m3 = _StorageFloat("fp8_e4m3", "uint8")
fp8_e8m0 = _StorageFloat("fp8_e8m0", "uint8")
bfloat16_raw = _StorageFloat("bfloat16_raw", "uint16")


class saturation_t(_enum.IntEnum):
    """__nv_saturation_t: overflow gives infinity/NaN (NOSAT) or the largest finite value (SATFINITE)."""
    NOSAT = 0
    SATFINITE = 1


class fp8_interpretation_t(_enum.IntEnum):
    """__nv_fp8_interpretation_t: the layout of a storage byte."""
    E4M3 = 0
    E5M2 = 1


__all__ = ["fp8_e5m2", "fp8_e4m3", "fp8_e8m0", "bfloat16_raw", "saturation_t", "fp8_interpretation_t"]
__all__ += _define(globals(), __name__, "cuda.fp8.", """
    cvt_float_to_fp8 cvt_double_to_fp8 cvt_bfloat16raw_to_fp8 cvt_bfloat16raw_to_e8m0 cvt_float_to_e8m0
    cvt_double_to_e8m0 cvt_e8m0_to_bf16raw
""")
