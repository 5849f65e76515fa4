"""numba.cuda.extending: numba's extension API for the CUDA target
(also numba.extending and numba.core.extending inside cuhost).

cuhost's typing and lowering are C++ and have no Python extension API yet:
@overload, @intrinsic, register_model and the rest raise
NotImplementedError when used. `core_models` and `models` are numba's
data-model module, which has no counterpart either.
"""
from . import models as core_models  # noqa: F401  (an unimplemented module: see _unimplemented.py)
from . import models  # noqa: F401
from ._missing import missing as _missing

_missing(globals(), """
    overload overload_method overload_attribute overload_classmethod intrinsic _Intrinsic register_jitable
    register_model make_attribute_wrapper type_callable typeof_impl lower_builtin lower_cast lower_getattr
    lower_getattr_generic lower_setattr lower_setattr_generic lower_constant box unbox reflect NativeValue
    as_numba_type infer infer_getattr infer_global bound_function get_cython_function_address include_path
    sentry_literal_args SentryLiteralArgs BoundLiteralArgs is_jitted
""")
