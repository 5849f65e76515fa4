// Includes headers that live outside this folder: they are found through
// NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS / numba.cuda.config at run time.
#include "ffi_scale.cuh"
#include "ffi_offset.cuh"

extern "C" __device__ int ffi_scale_offset(float* ret, float x) {
  *ret = ffi_offset_by(ffi_scale_by(x));
  return 0;
}
