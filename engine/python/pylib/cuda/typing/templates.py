"""numba.cuda.typing.templates: signatures, and numba's typing templates.

cuhost types kernels in C++ (engine/sema/typing), so numba's typing
template classes have no counterpart; they are placeholders. `signature` is real.
"""
from .._missing import missing as _missing
from ..types import Signature


def signature(return_type, *args, **kws):
    """The signature `return_type(*args)`."""
    if kws:
        raise TypeError("signature() got unexpected keyword arguments %s (cuhost has no recvr/pysig)"
                        % ", ".join(sorted(kws)))
    return Signature(return_type, args)


_missing(globals(), """
    AbstractTemplate AttributeTemplate CallableTemplate ConcreteTemplate FunctionTemplate Registry
    BaseRegistryLoader bound_function infer infer_getattr infer_global make_overload_template
    make_overload_attribute_template make_overload_method_template make_intrinsic_template fold_arguments
""")
