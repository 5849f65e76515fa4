"""numba.cuda.cudadecl: the CUDA target's typing registry (extension code
registers templates into it: ``register``, ``register_attr``,
``register_global``). cuhost's own CUDA functions are typed by the engine;
this registry holds only what extensions add (see typing/templates.py)."""
from .typing.templates import Registry

registry = Registry()
register = registry.register
register_attr = registry.register_attr
register_global = registry.register_global
