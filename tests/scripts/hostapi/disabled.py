# NUMBA_DISABLE_CUDA=1 disables the device API, as in numba-cuda: the first
# use raises CudaSupportError naming the variable, and cuda.cuda_error() says
# why; the process itself runs on.
# env: NUMBA_DISABLE_CUDA=1
# stdout: disabled ok
from numba import cuda
from numba.cuda.cudadrv.error import CudaSupportError

for use in (lambda: cuda.device_array(1), lambda: cuda.to_device([1, 2]), cuda.current_context):
    try:
        use()
        raise SystemExit("the device API worked with NUMBA_DISABLE_CUDA=1")
    except CudaSupportError as err:
        assert isinstance(err, ImportError)
        assert "CUDA is disabled due to setting NUMBA_DISABLE_CUDA=1" in err.msg, err.msg
assert "NUMBA_DISABLE_CUDA=1" in cuda.cuda_error()
print("disabled ok")
