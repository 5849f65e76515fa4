"""cuda-python's cuda.bindings.driver: placeholders (see bindings/__init__.py)."""
from .._missing import missing as _missing

_missing(globals(), "cuLibraryGetGlobal cuMemcpyHtoD cuCtxCreate cuCtxGetCurrent CUresult CUjitInputType",
        " (NVIDIA cuda-python's driver bindings; cuhost does not use cuda-python)", prefix="cuda.bindings.driver")
