"""numba.cuda.core.callconv: the calling conventions of compiled functions,
as far as extension code sees them. cuhost's engine decides how its device
functions are called; code generation callbacks only meet the objects
naming a convention: CUDACallConv is the one of the device functions
`context.compile_subroutine` returns (numba's ABI), whose
`fndesc.call_conv` callbacks check with isinstance before
`context.call_internal`. The convention's lowering methods, which work on
numba's own function descriptors, are not implemented."""

from .._missing import missing as _missing


class BaseCallConv:
    """A calling convention of compiled functions (numba's BaseCallConv)."""

    def __init__(self, context):
        self.context = context


class MinimalCallConv(BaseCallConv):
    """numba's minimal convention (a status code and a result pointer)."""


class CUDACallConv(MinimalCallConv):
    """The convention of device functions compiled with numba's ABI."""


_missing(
    globals(),
    "CPUCallConv ErrorModel PythonErrorModel NumpyErrorModel create_error_model "
    "RETCODE_OK RETCODE_NONE RETCODE_EXC RETCODE_STOPIT",
)
