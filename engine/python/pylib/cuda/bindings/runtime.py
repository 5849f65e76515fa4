"""cuda-python's cuda.bindings.runtime: placeholders (see bindings/__init__.py)."""
from .._missing import missing as _missing

_missing(globals(), "cudaRoundMode",
        " (NVIDIA cuda-python's runtime bindings; cuhost does not use cuda-python)", prefix="cuda.bindings.runtime")
