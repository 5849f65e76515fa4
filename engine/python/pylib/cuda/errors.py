"""numba.cuda.errors: the CUDA target's own errors and launch-dimension checks.

KernelRuntimeError is the class cuhost raises when a kernel fails at run
time (an assertion or bounds check in a debug kernel): _cuhost.KernelError.
"""
import numbers as _numbers

import _cuhost

from .core.errors import LoweringError

KernelRuntimeError = _cuhost.KernelError


class UnsupportedBytecodeError(Exception):
    """Unsupported bytecode is non-recoverable."""

    def __init__(self, msg, loc=None):
        super().__init__("%s. Raised from %s" % (msg, loc))


class CudaLoweringError(LoweringError):
    pass


_launch_help_url = "https://numba.readthedocs.io/en/stable/cuda/kernels.html#kernel-invocation"
missing_launch_config_msg = f"""
Kernel launch configuration was not specified. Use the syntax:

kernel_function[blockspergrid, threadsperblock](arg0, arg1, ..., argn)

See {_launch_help_url} for help.

"""


def normalize_kernel_dimensions(griddim, blockdim):
    """(griddim, blockdim) as two 3-tuples of ints; ValueError or TypeError
    for a missing configuration or a malformed dimension."""

    def check_dim(dim, name):
        dim = list(dim) if isinstance(dim, (tuple, list)) else [dim]
        if len(dim) > 3:
            raise ValueError("%s must be a sequence of 1, 2 or 3 integers, got %r" % (name, dim))
        for v in dim:
            if not isinstance(v, _numbers.Integral):
                raise TypeError("%s must be a sequence of integers, got %r" % (name, dim))
        return tuple(dim + [1] * (3 - len(dim)))

    if griddim is None or blockdim is None:
        raise ValueError(missing_launch_config_msg)
    return check_dim(griddim, "griddim"), check_dim(blockdim, "blockdim")
