// Found only through the extra NVRTC search path (include test).
#pragma once
__device__ inline float ffi_offset_by(float x) { return x - 0.75f; }
