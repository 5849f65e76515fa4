"""numba.cuda.np.ufunc: @vectorize and @guvectorize for the CUDA target.

decorators.py holds the decorators, ufunc.py the element-wise ufunc,
gufunc.py the generalized one, launch.py how their generated kernels are
compiled and launched, sigparse.py the signature parsers.
"""
from .decorators import vectorize, guvectorize, Vectorize, GUVectorize  # noqa: F401
