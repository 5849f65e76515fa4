# A driver that fails to initialize: numba-cuda's tests replace driver.cuInit
# before the first use; the first device operation then raises
# CudaSupportError "Error at driver init: <error> (<code>)", later ones say so
# again, and cuda.cuda_error() gives the reason.
# stdout: init failure ok
from numba import cuda
from numba.cuda.cudadrv.driver import CudaAPIError, driver
from numba.cuda.cudadrv.error import CudaSupportError


def failing_init(flags):
    raise CudaAPIError(999, "CUDA_ERROR_UNKNOWN")


driver.cuInit = failing_init
try:
    cuda.device_array(1)
    raise SystemExit("initialization did not fail")
except CudaSupportError as err:
    assert err.msg == "Error at driver init: CUDA_ERROR_UNKNOWN (999)", err.msg
assert cuda.cuda_error() == "CUDA_ERROR_UNKNOWN (999)"
try:
    cuda.stream_ready = cuda.current_context()
    raise SystemExit("a failed driver was used")
except CudaSupportError as err:
    assert "CUDA_ERROR_UNKNOWN (999)" in err.msg
print("init failure ok")
