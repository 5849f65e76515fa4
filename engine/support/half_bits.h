// Host-side encoding of doubles as the bits of narrow binary floats (IEEE
// half, bfloat16): kernel arguments of those types are packed from Python
// floats and NumPy scalars, and the CPU runtime supplies the float ->
// bfloat16 rounding that LLVM's x86 backend calls but libgcc lacks. One
// generic, correctly rounded routine serves every format and rounding mode.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace cuhost::support {

enum class RoundMode { NearestEven, TowardZero, Down, Up };

// The bits of `d` rounded to a binary float with `ebits` exponent bits and
// `mbits` stored mantissa bits (IEEE layout: sign, exponent, mantissa).
// NaN keeps its sign and becomes the quiet NaN; overflow follows the mode
// (infinity for nearest, the largest finite value when rounding toward zero
// or away from the overflow's direction).
inline std::uint32_t encode_float_bits(double d, int ebits, int mbits, RoundMode mode) {
  const std::uint32_t sign = std::signbit(d) ? 1u << (ebits + mbits) : 0u;
  const std::uint32_t exp_all = (1u << ebits) - 1u;
  const std::uint32_t inf = exp_all << mbits;
  if (std::isnan(d)) return sign | inf | (1u << (mbits - 1));
  const double a = std::fabs(d);
  const int bias = (1 << (ebits - 1)) - 1;
  const std::uint32_t max_finite = inf - 1u;
  auto overflow = [&]() -> std::uint32_t {
    bool to_inf =
        mode == RoundMode::NearestEven || (mode == RoundMode::Up && !sign) || (mode == RoundMode::Down && sign);
    return sign | (to_inf ? inf : max_finite);
  };
  if (std::isinf(a)) return sign | inf;
  if (a == 0.0) return sign;
  int x;
  std::frexp(a, &x);               // a = f * 2^x, f in [0.5, 1)
  int e = x - 1;                   // unbiased exponent of a
  if (e < 1 - bias) e = 1 - bias;  // subnormal range: fixed quantum
  const double quantum = std::ldexp(1.0, e - mbits);
  const double q = a / quantum;  // exact: a power-of-two scaling
  double r;
  switch (mode) {
    case RoundMode::NearestEven: r = std::nearbyint(q); break;  // default FP environment: ties to even
    case RoundMode::TowardZero: r = std::trunc(q); break;
    case RoundMode::Down: r = sign ? std::ceil(q) : std::floor(q); break;
    case RoundMode::Up: r = sign ? std::floor(q) : std::ceil(q); break;
  }
  std::uint64_t n = static_cast<std::uint64_t>(r);  // significand in units of quantum (<= 2^(mbits+1))
  int biased = e + bias;
  if (n >= (std::uint64_t(1) << (mbits + 1))) {  // rounding carried into the next binade
    n >>= 1;
    ++biased;
  }
  if (n < (std::uint64_t(1) << mbits)) return sign | static_cast<std::uint32_t>(n);  // subnormal (biased field 0)
  if (biased >= static_cast<int>(exp_all)) return overflow();
  return sign | (static_cast<std::uint32_t>(biased) << mbits) |
         static_cast<std::uint32_t>(n & ((std::uint64_t(1) << mbits) - 1));
}

inline std::uint16_t double_to_half_bits(double d) {
  return static_cast<std::uint16_t>(encode_float_bits(d, 5, 10, RoundMode::NearestEven));
}

inline std::uint16_t double_to_bfloat16_bits(double d, RoundMode mode = RoundMode::NearestEven) {
  return static_cast<std::uint16_t>(encode_float_bits(d, 8, 7, mode));
}

}  // namespace cuhost::support
