"""numba's own objects, where numba itself is installed beside cuhost
(_installed.py), taken where cuhost takes its own:

- types: `cuda.jit(void(float32[:]))` with numba's `void` and `float32`,
  numba's Signature objects, tuples of numba's types for compile_ptx and
  declare_device. They are converted through their numba spelling
  ("array(float32, 1d, A)"), which cuhost's type parser reads; cuhost's own
  objects pass through unchanged.
- @njit functions called by kernels: as numba-cuda does, the function's
  Python source is compiled as a device function (device_function; the
  capture hook in python/hooks.cpp asks for it).
"""
import sys


def _numba_classes():
    numba = sys.modules.get("numba")
    if numba is None or not hasattr(numba, "core") or str(getattr(numba, "__version__", "")).startswith("0.0.0+cuhost"):
        return None
    try:
        # Lazy and optional: numba's own classes exist only where numba itself took over `numba`.
        from numba.core.types import Type
        from numba.core.typing.templates import Signature
    except ImportError:
        return None
    return Type, Signature


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
        # Upward: cuda/compiler.py imports this module at its top (from_numba).
        from .compiler import _to_type

        return _to_type(str(obj))
    if isinstance(obj, (list, tuple)) and any(isinstance(o, (numba_type, numba_signature)) for o in obj):
        return type(obj)(from_numba(o) for o in obj)
    return obj


def device_function(dispatcher):
    """The device function a kernel calls for numba's @njit `dispatcher`
    (one per dispatcher, kept on it)."""
    device = dispatcher.__dict__.get("_cuhost_device_function")
    if device is None:
        # Upward: cuda/compiler.py imports this module at its top (from_numba).
        from .compiler import jit

        device = jit(device=True)(dispatcher.py_func)
        dispatcher._cuhost_device_function = device
    return device
