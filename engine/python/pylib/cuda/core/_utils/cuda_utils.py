"""cuda-python's error classes, mapped to the classes cuhost raises.

numba-cuda lets cuda-python's CUDAError escape when a driver call fails
(a launch over the block-size limit: CUDA_ERROR_INVALID_VALUE) and
NVRTCError when NVRTC rejects a `.cu` link item. cuhost raises CudaAPIError
and NvrtcError in those cases, so those are the classes here.
"""
import _cuhost

CUDAError = _cuhost.CudaAPIError
NVRTCError = _cuhost.NvrtcError
