"""numba.cuda.cudaimpl: the CUDA target's lowering registry (extension code
registers into it: ``lower``, ``lower_attr``, ``lower_constant``). cuhost's
own CUDA functions are lowered by the engine; this registry holds only what
extensions add (see core/imputils.py)."""
from .core.imputils import Registry

registry = Registry("cudaimpl")
lower = registry.lower
lower_attr = registry.lower_getattr
lower_constant = registry.lower_constant
