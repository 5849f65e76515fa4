"""numba.cuda.vectorizers: numba-cuda's names for the CUDA ufunc objects.

The implementation lives in cuda/np/ufunc/.
"""
from .np.ufunc.ufunc import CUDAUFunc as CUDAUFuncDispatcher  # noqa: F401
from .np.ufunc.gufunc import CUDAGeneralizedUFunc  # noqa: F401
from .np.ufunc.decorators import Vectorize as CUDAVectorize, GUVectorize as CUDAGUFuncVectorize  # noqa: F401
