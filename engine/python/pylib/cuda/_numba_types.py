"""numba's own objects, where numba itself is installed beside cuhost
(_installed.py), taken where cuhost takes its own:

- types: `cuda.jit(void(float32[:]))` with numba's `void` and `float32`,
  numba's Signature objects, tuples of numba's types for compile_ptx and
  declare_device. They are converted through their numba spelling
  ("array(float32, 1d, A)"), which cuhost's type parser reads; cuhost's own
  objects pass through unchanged.

(@njit functions called by kernels are compiled as device functions by the
numba_device_function hook, cuda/_hooks.py: it needs cuda.jit, which sits
above this module.)
"""
import sys

from ._type_spelling import to_type as _to_type


def _numba_classes():
    numba = sys.modules.get("numba")
    if numba is None or not hasattr(numba, "core") or str(getattr(numba, "__version__", "")).startswith("0.0.0+cuhost"):
        return None
    # Read from the modules that define them, importing nothing: an object
    # can be an instance of numba's Type or Signature only once that module
    # ran, and `numba.core...` here names numba's modules, not pylib's
    # (whose paths they alias). isinstance(obj, ()) is False.
    abstract = sys.modules.get("numba.core.types.abstract")
    templates = sys.modules.get("numba.core.typing.templates")
    return getattr(abstract, "Type", ()), getattr(templates, "Signature", ())


def from_numba(obj):
    """obj with numba's types replaced by cuhost's: a Signature becomes its
    spelling, a type cuhost's type object; lists and tuples element-wise."""
    classes = _numba_classes()
    if classes is None:
        return obj
    numba_type, numba_signature = classes
    if isinstance(obj, numba_signature):
        return "%s(%s)" % (obj.return_type, ", ".join(str(a) for a in obj.args))
    if isinstance(obj, numba_type):
        return _to_type(str(obj))
    if isinstance(obj, (list, tuple)) and any(isinstance(o, (numba_type, numba_signature)) for o in obj):
        return type(obj)(from_numba(o) for o in obj)
    return obj

