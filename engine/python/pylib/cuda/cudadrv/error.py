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


# numba-cuda's CudaAPIError(code, msg): `code` (a CUresult) and `msg`, shown
# as "[code] msg". cuhost raises it with one argument (the message naming the
# driver function and the error), which is then `msg`, with no code.
def _api_error_code(self):
    return self.args[0] if len(self.args) == 2 else None


def _api_error_msg(self):
    if len(self.args) == 2:
        return self.args[1]
    return self.args[0] if self.args else ""


def _api_error_str(self):
    if len(self.args) == 2:
        return "[%s] %s" % self.args
    return Exception.__str__(self)


_cuhost.CudaAPIError.code = property(_api_error_code)
_cuhost.CudaAPIError.msg = property(_api_error_msg)
_cuhost.CudaAPIError.__str__ = _api_error_str


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
