"""numba.cuda.np.ufunc: @vectorize and @guvectorize for the CUDA target.

cuhost has no ufunc builder yet: both raise NotImplementedError when used.
"""
from ..._missing import missing as _missing

_missing(globals(), "vectorize guvectorize")
