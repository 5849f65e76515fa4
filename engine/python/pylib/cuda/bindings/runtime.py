"""cuda-python's cuda.bindings.runtime, as far as numba-cuda code reaches into
it: the rounding-mode enum the fp8 conversions take (its values are the CUDA
runtime's cudaRoundMode); everything else is a placeholder (see
bindings/__init__.py)."""
import enum as _enum


class cudaRoundMode(_enum.IntEnum):
    cudaRoundNearest = 0
    cudaRoundZero = 1
    cudaRoundPosInf = 2
    cudaRoundMinInf = 3
