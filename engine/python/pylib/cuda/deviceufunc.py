"""numba.cuda.deviceufunc: numba-cuda's module of the device ufunc machinery.

The implementation lives in cuda/np/ufunc/; these are its names under
numba-cuda's module path.
"""
from .np.ufunc.gufunc import CUDAGeneralizedUFunc as GeneralizedUFunc, GUFuncEngine, GUFuncSchedule  # noqa: F401
from .np.ufunc.sigparse import parse_signature  # noqa: F401
from .np.ufunc.ufunc import broadcast_shapes as _multi_broadcast_shapes


def _multi_broadcast(*shapelist):
    """The broadcast of the shapes (ValueError when they do not broadcast)."""
    return _multi_broadcast_shapes(shapelist)
