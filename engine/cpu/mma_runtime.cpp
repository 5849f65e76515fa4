// The CPU backend's cuda.mma (see mma_runtime.h for the model and its
// rounding; the fragment layouts are PTX ISA's for mma.sync.m16n8k16 (f16,
// bf16), m16n8k8 (tf32) and m16n8k32 (e4m3, e5m2), and for ldmatrix).
#include "cpu/mma_runtime.h"

#include <cmath>
#include <cstring>

namespace {

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

float decode_half(std::uint32_t h) {
  const bool negative = h & 0x8000;
  const int exponent = int(h >> 10) & 0x1f;
  const int mantissa = int(h & 0x3ff);
  float v;
  if (exponent == 0x1f)
    v = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    v = std::ldexp(float(mantissa), -24);
  else
    v = std::ldexp(float(mantissa | 0x400), exponent - 25);
  return negative ? -v : v;
}

// e4m3: bias 7, 3 mantissa bits, no infinities, S.1111.111 is NaN.
float decode_e4m3(std::uint32_t x) {
  const bool negative = x & 0x80;
  const int exponent = int(x >> 3) & 0xf;
  const int mantissa = int(x & 0x7);
  float v;
  if (exponent == 0xf && mantissa == 0x7)
    v = NAN;
  else if (exponent == 0)
    v = std::ldexp(float(mantissa), -9);
  else
    v = std::ldexp(float(mantissa | 0x8), exponent - 10);
  return negative ? -v : v;
}

// e5m2: bias 15, 2 mantissa bits, IEEE infinities and NaNs.
float decode_e5m2(std::uint32_t x) {
  const bool negative = x & 0x80;
  const int exponent = int(x >> 2) & 0x1f;
  const int mantissa = int(x & 0x3);
  float v;
  if (exponent == 0x1f)
    v = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    v = std::ldexp(float(mantissa), -16);
  else
    v = std::ldexp(float(mantissa | 0x4), exponent - 17);
  return negative ? -v : v;
}

// Element `part` of register `reg` (the low bits first).
float element(std::int32_t input, std::uint32_t reg, int part) {
  switch (input) {
    case 0: return decode_half((reg >> (16 * part)) & 0xffff);
    case 1: return from_bits(((reg >> (16 * part)) & 0xffff) << 16);
    case 2: return from_bits(reg & ~0x1fffu);
    case 3: return decode_e4m3((reg >> (8 * part)) & 0xff);
    default: return decode_e5m2((reg >> (8 * part)) & 0xff);
  }
}

constexpr int kMaxK = 32;

}  // namespace

extern "C" {

void cuhost_cpu_mma(std::int32_t input, std::int32_t lane, const std::uint32_t* const* lanes, float* d) {
  // Elements per register: 2 (16-bit), 1 (tf32), 4 (fp8); k follows.
  const int per = input == 2 ? 1 : input >= 3 ? 4 : 2;
  const int k = 8 * per;
  float a[16][kMaxK], b[kMaxK][8];
  for (int l = 0; l < 32; ++l) {
    const int g = l >> 2, t = l & 3;
    for (int r = 0; r < 4; ++r)
      for (int p = 0; p < per; ++p) {
        // A: registers 0/2 hold row g, 1/3 row g + 8; 2/3 the upper half of k.
        const int row = g + 8 * (r & 1), col = per * t + p + (k / 2) * (r >> 1);
        a[row][col] = element(input, lanes[l][r], p);
      }
    for (int r = 0; r < 2; ++r)
      for (int p = 0; p < per; ++p) b[per * t + p + (k / 2) * r][g] = element(input, lanes[l][4 + r], p);
  }
  const std::uint32_t* own = lanes[lane];
  const int g = lane >> 2, t = lane & 3;
  for (int r = 0; r < 4; ++r) {
    const int row = g + 8 * (r >> 1), col = 2 * t + (r & 1);
    float acc = from_bits(own[6 + r]);
    for (int p = 0; p < k; ++p) acc += a[row][p] * b[p][col];
    d[r] = acc;
  }
}

void cuhost_cpu_ldmatrix(std::int32_t lane, std::int32_t num, std::int32_t trans, const std::uint16_t* const* rows,
                         std::uint32_t* out) {
  const int g = lane >> 2, t = lane & 3;
  for (int m = 0; m < num; ++m) {
    std::uint32_t lo, hi;
    if (trans) {
      lo = rows[8 * m + 2 * t][g];
      hi = rows[8 * m + 2 * t + 1][g];
    } else {
      lo = rows[8 * m + g][2 * t];
      hi = rows[8 * m + g][2 * t + 1];
    }
    out[m] = lo | (hi << 16);
  }
}

std::uint32_t cuhost_cpu_to_tf32(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  if (!std::isfinite(x)) return u;
  return (u + 0x1000u) & ~0x1fffu;
}
}
