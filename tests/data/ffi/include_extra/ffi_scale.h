// A header only reachable through NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS.
#pragma once
#define FFI_SCALE 3.0f
