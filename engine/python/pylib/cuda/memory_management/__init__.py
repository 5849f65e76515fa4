"""numba.cuda.memory_management: the in-kernel memory runtime's statistics (nrt.py)."""
from .nrt import rtsys  # noqa: F401
