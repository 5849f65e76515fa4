"""numba.cuda._internal: numba-cuda's generated bindings of CUDA headers
(cuda_bf16, cuda_fp8); cuhost implements them as engine intrinsics."""
