"""numba.cuda._internal.cuda_bf16: the bindings of cuda_bf16.h numba-cuda
generates. ``nv_bfloat16`` is the bfloat16 type; the functions are those of
numba.cuda.bf16 (one implementation, engine/sema/typing/half.cpp)."""
from ..bf16 import *  # noqa: F403
from ..bf16 import __all__ as _bf16_all
from ..types import bfloat16 as nv_bfloat16

__all__ = ["nv_bfloat16", *list(_bf16_all)]
