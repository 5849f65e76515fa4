"""numba.cuda.vectorizers: numba-cuda's names for the CUDA ufunc objects.

The implementation lives in cuda/np/ufunc/.
"""
from .np.ufunc.decorators import GUVectorize as CUDAGUFuncVectorize, Vectorize as CUDAVectorize  # noqa: F401
from .np.ufunc.gufunc import CUDAGeneralizedUFunc  # noqa: F401
from .np.ufunc.ufunc import CUDAUFunc as CUDAUFuncDispatcher  # noqa: F401
