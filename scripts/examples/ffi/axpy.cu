// A foreign axpy built from two template headers that live in folders only
// the extra search path names (NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS or
// numba.cuda.config.CUDA_NVRTC_EXTRA_SEARCH_PATHS).
#include "scale.cuh"
#include "offset.cuh"

extern "C" __device__ int axpy(float* result, float a, float x, float y) {
  *result = offset(scale(a, x), y);
  return 0;
}
