// cuda.wmma on the CPU backend (lowering/wmma.cpp calls these). A fragment
// is, on the CPU, the whole tile in float32, row by row, held by every lane
// of the warp (on the GPU each lane holds a share in an unspecified order):
// a load converts each element exactly (fp16 and bf16 are exact in float32;
// tf32 inputs are rounded to nearest, ties away from zero, as cvt.rna.tf32
// does), mma_sync sums in float32 in k order, and a store writes the
// elements whose index is the lane's modulo 32, so the warp's 32 lanes write
// every element once.
#pragma once

#include <cstdint>

extern "C" {

// element: 0 float16, 1 bfloat16 (its bits), 2 tf32 (float32 rounded), 3 float32.
void cuhost_cpu_wmma_load(float* fragment, const void* base, std::int32_t element, std::int32_t rows, std::int32_t cols,
                          std::int64_t ldm, std::int32_t row_major);
void cuhost_cpu_wmma_fill(float* fragment, std::int32_t count, std::int32_t element, float value);
// d = a (m x k) * b (k x n) + c (m x n); d may be c.
void cuhost_cpu_wmma_mma(float* d, const float* a, const float* b, const float* c, std::int32_t m, std::int32_t n,
                         std::int32_t k);
void cuhost_cpu_wmma_store(float* base, const float* fragment, std::int32_t rows, std::int32_t cols, std::int64_t ldm,
                           std::int32_t row_major, std::int32_t lane);
}
