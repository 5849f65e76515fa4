// Floating-point operations in a directed rounding mode for JIT-ed kernels
// (libdevice's __nv_dadd_rd, __nv_float2int_ru, ... on the CPU backend):
// each sets the host's rounding mode around one IEEE operation, which the
// hardware then rounds exactly as PTX's .rz/.rm/.rp modifiers specify.
#pragma once

#include <cstdint>

extern "C" {

// mode: 0 nearest even, 1 toward zero, 2 down (-inf), 3 up (+inf).
// op: 0 add, 1 sub, 2 mul, 3 div, 4 fma (a*b+c), 5 sqrt (a), 6 rcp (1/a).
double cuhost_cpu_round_f64(std::int32_t op, std::int32_t mode, double a, double b, double c);
float cuhost_cpu_round_f32(std::int32_t op, std::int32_t mode, float a, float b, float c);
// double -> float in `mode`.
float cuhost_cpu_d2f(std::int32_t mode, double a);
// A 64-bit integer (bits, signed unless is_unsigned) -> float / double in `mode`.
float cuhost_cpu_i2f(std::int32_t mode, std::int64_t bits, std::int32_t is_unsigned);
double cuhost_cpu_i2d(std::int32_t mode, std::int64_t bits, std::int32_t is_unsigned);
}
