"""numba.cuda.cudadrv.dummyarray: numba-cuda's pure-Python model of array
shapes and strides (used by its device arrays for slicing and reshaping).

cuhost's device arrays do that in C++ (engine/python/device_array_index.cpp);
this model is not implemented yet.
"""
from .._missing import missing as _missing

_missing(globals(), "Array Element Dim Extent attempt_nocopy_reshape compute_index is_element_indexing "
                   "iter_strides_c_contig iter_strides_f_contig")
