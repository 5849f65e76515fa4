// cuda.mma on the CPU backend (lowering/mma.cpp calls these). Each lane of
// the warp holds its own registers, laid out as PTX's ISA documents for
// mma.sync and ldmatrix; the lowering gathers the addresses of every lane's
// registers (or rows) with warp shuffles, and these functions compute the
// lane's results from them as the hardware would:
// - mma: the 16 x k A and k x 8 B tiles are decoded from the 32 lanes'
//   registers (fp16, bf16 and fp8 exactly; tf32 registers keep their 19 high
//   bits, as the tensor cores read them), and each accumulator is
//   c + a0*b0 + a1*b1 + ... summed in float32 in k order (each product is
//   exact in float32, so only the sums round, to nearest even);
// - ldmatrix: lane L receives, of each 8x8 matrix, row L/4's elements
//   2*(L%4) and 2*(L%4)+1 (transposed: column L/4's), low half first.
#pragma once

#include <cstdint>

extern "C" {

// `lanes[s]` points at lane s's registers: a0..a3, b0..b1, then c0..c3 (float
// bits). input: sema::MmaInput's code (0 f16, 1 bf16, 2 tf32, 3 e4m3, 4
// e5m2). Writes the lane's four accumulators to `d`.
void cuhost_cpu_mma(std::int32_t input, std::int32_t lane, const std::uint32_t* const* lanes, float* d);
// `rows[s]` is the address lane s gave (the first of 8 16-bit elements of a
// row); num is 1, 2 or 4. Writes the lane's `num` registers to `out`.
void cuhost_cpu_ldmatrix(std::int32_t lane, std::int32_t num, std::int32_t trans, const std::uint16_t* const* rows,
                         std::uint32_t* out);
// cvt.rna.tf32.f32: the tf32 value nearest x (ties away from zero), as float32 bits.
std::uint32_t cuhost_cpu_to_tf32(float x);
}
