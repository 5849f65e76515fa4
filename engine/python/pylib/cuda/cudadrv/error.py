"""numba.cuda.cudadrv.error: the driver-layer exception classes.

Where cuhost raises an error of the same meaning, numba's name is cuhost's
class itself, so `except NvrtcError` catches what cuhost raises:
CudaSupportError, CudaDriverError (cuhost's CudaAPIError, raised when a
driver call fails) and NvrtcError / NvrtcCompilationError (cuhost raises one
class for every NVRTC failure). The others cuhost never raises; they are
defined with numba-cuda's bases so code that names them still works.
"""
import _cuhost

CudaSupportError = _cuhost.CudaSupportError
CudaDriverError = _cuhost.CudaAPIError
NvrtcError = _cuhost.NvrtcError
NvrtcCompilationError = _cuhost.NvrtcError


class CudaRuntimeError(Exception):
    pass


class NvvmError(Exception):
    def __str__(self):
        return "\n".join(map(str, self.args))


class NvvmSupportError(ImportError):
    pass


class NvvmWarning(Warning):
    pass


class NvrtcBuiltinOperationFailure(NvrtcError):
    pass


class NvrtcSupportError(ImportError):
    pass


class CCSupportError(RuntimeError):
    pass
