// cuhost's NRT for foreign CUDA C++: the heap allocator kernels compiled
// with CUDA_ENABLE_NRT use, for code linked with LinkableCode(..., nrt=True).
// The kernel's module defines these functions (the device heap on the GPU);
// each allocation and free is counted by numba.cuda.memory_management.rtsys.
#pragma once

extern "C" __device__ void* NRT_Allocate(unsigned long long size);
extern "C" __device__ void NRT_Free(void* ptr);
