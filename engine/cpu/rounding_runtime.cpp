// Directed-rounding operations (see rounding_runtime.h). The operands pass
// through volatile objects so the compiler neither folds the operation nor
// moves it across the fesetround calls that bracket it; the file is also
// built with -frounding-math.
#include "cpu/rounding_runtime.h"

#include <cfenv>
#include <cmath>

namespace {

int fe_mode(std::int32_t mode) {
  switch (mode) {
    case 1: return FE_TOWARDZERO;
    case 2: return FE_DOWNWARD;
    case 3: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

class RoundingScope {
 public:
  explicit RoundingScope(std::int32_t mode) : saved_(std::fegetround()) { std::fesetround(fe_mode(mode)); }
  ~RoundingScope() { std::fesetround(saved_); }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  int saved_;
};

template <typename T>
T apply(std::int32_t op, std::int32_t mode, T a0, T b0, T c0) {
  volatile T va = a0, vb = b0, vc = c0;
  volatile T out;
  {
    RoundingScope scope(mode);
    T a = va, b = vb, c = vc;
    switch (op) {
      case 0: out = a + b; break;
      case 1: out = a - b; break;
      case 2: out = a * b; break;
      case 3: out = a / b; break;
      case 4: out = std::fma(a, b, c); break;
      case 5: out = std::sqrt(a); break;
      default: out = T(1) / a; break;
    }
  }
  return out;
}

}  // namespace

extern "C" {

double cuhost_cpu_round_f64(std::int32_t op, std::int32_t mode, double a, double b, double c) {
  return apply<double>(op, mode, a, b, c);
}

float cuhost_cpu_round_f32(std::int32_t op, std::int32_t mode, float a, float b, float c) {
  return apply<float>(op, mode, a, b, c);
}

float cuhost_cpu_d2f(std::int32_t mode, double a) {
  volatile double va = a;
  volatile float out;
  {
    RoundingScope scope(mode);
    out = static_cast<float>(va);
  }
  return out;
}

float cuhost_cpu_i2f(std::int32_t mode, std::int64_t bits, std::int32_t is_unsigned) {
  volatile std::int64_t vb = bits;
  volatile float out;
  {
    RoundingScope scope(mode);
    std::int64_t b = vb;
    out = is_unsigned ? static_cast<float>(static_cast<std::uint64_t>(b)) : static_cast<float>(b);
  }
  return out;
}

double cuhost_cpu_i2d(std::int32_t mode, std::int64_t bits, std::int32_t is_unsigned) {
  volatile std::int64_t vb = bits;
  volatile double out;
  {
    RoundingScope scope(mode);
    std::int64_t b = vb;
    out = is_unsigned ? static_cast<double>(static_cast<std::uint64_t>(b)) : static_cast<double>(b);
  }
  return out;
}
}
