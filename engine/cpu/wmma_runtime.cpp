// The CPU backend's cuda.wmma (see wmma_runtime.h for the model and its
// rounding).
#include "cpu/wmma_runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace {

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

std::uint32_t to_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000) << 16;
  const int exponent = (h >> 10) & 0x1f;
  const std::uint32_t mantissa = h & 0x3ff;
  if (exponent == 0x1f) return from_bits(sign | 0x7f800000 | (mantissa << 13));
  if (exponent == 0) {
    const float v = std::ldexp(float(mantissa), -24);  // subnormal: exact in float32
    return sign ? -v : v;
  }
  return from_bits(sign | (std::uint32_t(exponent - 15 + 127) << 23) | (mantissa << 13));
}

// cvt.rna.tf32.f32: 10 mantissa bits, to nearest with ties away from zero.
float round_tf32(float x) {
  if (!std::isfinite(x)) return x;
  return from_bits((to_bits(x) + 0x1000u) & ~0x1fffu);
}

// float -> float16 -> float, to nearest even (fill values of fp16 fragments).
float round_half(float x) {
  if (!std::isfinite(x)) return x;
  const float a = std::fabs(x);
  if (a >= 65520.0f) return std::copysign(INFINITY, x);
  int e;
  std::frexp(a, &e);
  const int step_exp = std::max(e - 11, -24);  // the spacing of float16 values near a
  const float step = std::ldexp(1.0f, step_exp);
  return std::copysign(std::nearbyint(a / step) * step, x);
}

float round_bf16(float x) {
  if (!std::isfinite(x)) return x;
  const std::uint32_t u = to_bits(x);
  return from_bits((u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u);
}

float element_at(const void* base, std::int32_t element, std::int64_t i) {
  switch (element) {
    case 0: return half_to_float(static_cast<const std::uint16_t*>(base)[i]);
    case 1: return from_bits(std::uint32_t(static_cast<const std::uint16_t*>(base)[i]) << 16);
    case 2: return round_tf32(static_cast<const float*>(base)[i]);
    default: return static_cast<const float*>(base)[i];
  }
}

}  // namespace

extern "C" {

void cuhost_cpu_wmma_load(float* fragment, const void* base, std::int32_t element, std::int32_t rows, std::int32_t cols,
                          std::int64_t ldm, std::int32_t row_major) {
  for (std::int32_t r = 0; r < rows; ++r)
    for (std::int32_t c = 0; c < cols; ++c)
      fragment[r * cols + c] = element_at(base, element, row_major ? r * ldm + c : c * ldm + r);
}

void cuhost_cpu_wmma_fill(float* fragment, std::int32_t count, std::int32_t element, float value) {
  const float v = element == 0   ? round_half(value)
                  : element == 1 ? round_bf16(value)
                  : element == 2 ? round_tf32(value)
                                 : value;
  for (std::int32_t i = 0; i < count; ++i) fragment[i] = v;
}

void cuhost_cpu_wmma_mma(float* d, const float* a, const float* b, const float* c, std::int32_t m, std::int32_t n,
                         std::int32_t k) {
  std::vector<float> out(std::size_t(m) * std::size_t(n));
  for (std::int32_t i = 0; i < m; ++i)
    for (std::int32_t j = 0; j < n; ++j) {
      float acc = c[i * n + j];
      // Each product of two fp16/bf16/tf32 values is exact in float32; only the sums round.
      for (std::int32_t p = 0; p < k; ++p) acc += a[i * k + p] * b[p * n + j];
      out[std::size_t(i) * std::size_t(n) + std::size_t(j)] = acc;
    }
  std::memcpy(d, out.data(), out.size() * sizeof(float));
}

void cuhost_cpu_wmma_store(float* base, const float* fragment, std::int32_t rows, std::int32_t cols, std::int64_t ldm,
                           std::int32_t row_major, std::int32_t lane) {
  for (std::int32_t e = lane & 31; e < rows * cols; e += 32) {
    const std::int32_t r = e / cols, c = e % cols;
    base[row_major ? r * ldm + c : c * ldm + r] = fragment[e];
  }
}
}
