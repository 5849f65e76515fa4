# numba's exception classes under numba-cuda's names and hierarchy, built on
# the classes cuhost raises: a typing error from cuhost's compiler is caught
# as numba.core.errors.TypingError, numba.cuda.core.errors.TypingError and
# NumbaError; numba's warnings and driver-layer errors have numba's bases.
# stdout: errors ok
import numpy as np

import _cuhost
from numba import cuda
from numba.core import errors as numba_errors
from numba.cuda.core import errors
from numba.cuda.cudadrv import error as drv_error
from numba.cuda.cudadrv.driver import CudaAPIError, LinkerError
import numba.cuda.errors as cuda_errors

assert numba_errors is errors
assert errors.TypingError is _cuhost.TypingError is cuda.TypingError
assert errors.NumbaError is _cuhost.CudaError
assert errors.UnsupportedError is _cuhost.UnsupportedError
for cls in (errors.TypingError, errors.UnsupportedError, errors.LoweringError, errors.InternalError,
            errors.CompilerError, errors.IRError):
    assert issubclass(cls, errors.NumbaError), cls
for cls in (errors.NumbaTypeError, errors.NumbaValueError, errors.NumbaAttributeError, errors.NumbaKeyError,
            errors.NumbaIndexError, errors.NumbaNotImplementedError, errors.UntypedAttributeError,
            errors.RequireLiteralValue, errors.LiteralTypingError):
    assert issubclass(cls, errors.TypingError), cls
assert issubclass(errors.ForbiddenConstruct, errors.LoweringError)
assert issubclass(errors.RedefinedError, errors.IRError)
assert issubclass(cuda_errors.CudaLoweringError, errors.LoweringError)
assert not issubclass(errors.UnsupportedBytecodeError, errors.NumbaError)

# Warnings: numba's categories.
assert issubclass(errors.NumbaPerformanceWarning, errors.NumbaWarning)
assert issubclass(errors.NumbaDeprecationWarning, DeprecationWarning)
assert issubclass(errors.NumbaPendingDeprecationWarning, PendingDeprecationWarning)
assert issubclass(errors.NumbaIRAssumptionWarning, errors.NumbaPedanticWarning)
assert issubclass(errors.NumbaWarning, Warning) and not issubclass(errors.NumbaWarning, DeprecationWarning)

# numba's (msg, loc) arguments and add_context on the classes defined in Python.
e = errors.NumbaTypeError("bad operand")
assert str(e) == "bad operand" and e.msg == "bad operand"
e.add_context("resolving a call")
assert "bad operand" in str(e) and "During: resolving a call" in str(e), str(e)


class Loc:
    def strformat(self):
        return 'File "k.py", line 3'


assert str(errors.LoweringError("no lowering", loc=Loc())) == 'no lowering\nFile "k.py", line 3\n'

# A typing error raised by cuhost's compiler is numba's TypingError.


@cuda.jit
def bad(a):
    a[0] = "text"


for catch in (numba_errors.TypingError, errors.TypingError, errors.NumbaError):
    try:
        bad[1, 1](np.zeros(1, np.float32))
        raise AssertionError("no typing error")
    except catch as exc:
        assert type(exc) is _cuhost.TypingError, type(exc)

# Driver-layer classes: cuhost's where it raises them, numba's bases elsewhere.
assert drv_error.CudaSupportError is _cuhost.CudaSupportError is cuda.CudaSupportError
assert drv_error.CudaDriverError is CudaAPIError is _cuhost.CudaAPIError
assert drv_error.NvrtcError is drv_error.NvrtcCompilationError is _cuhost.NvrtcError
assert LinkerError is _cuhost.LinkerError
assert issubclass(drv_error.NvrtcBuiltinOperationFailure, drv_error.NvrtcError)
assert issubclass(drv_error.NvvmSupportError, ImportError) and issubclass(drv_error.CCSupportError, RuntimeError)
assert issubclass(drv_error.NvvmWarning, Warning)
assert cuda_errors.KernelRuntimeError is _cuhost.KernelError is cuda.KernelRuntimeError

# numba.cuda.errors' launch-dimension check.
assert cuda_errors.normalize_kernel_dimensions(4, (8, 2)) == ((4, 1, 1), (8, 2, 1))
for args, exc in (((None, 4), ValueError), (((1, 2, 3, 4), 1), ValueError), ((1.5, 1), TypeError)):
    try:
        cuda_errors.normalize_kernel_dimensions(*args)
        raise AssertionError(args)
    except exc:
        pass
print("errors ok")
