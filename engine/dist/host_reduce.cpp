// Host-side element-wise reductions (see host_reduce.h).
#include "dist/host_reduce.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "support/half_bits.h"

namespace cuhost::dist {

namespace {

float half_to_float(std::uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  return sign ? -magnitude : magnitude;
}

float bfloat16_to_float(std::uint16_t b) {
  std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

float combine(float a, float b, ReduceOp op) {
  switch (op) {
    case ReduceOp::Prod: return a * b;
    case ReduceOp::Max: return std::isnan(a) || a > b ? a : b;
    case ReduceOp::Min: return std::isnan(a) || a < b ? a : b;
    default: return a + b;
  }
}

template <class T>
void reduce_bytes(const void* in, void* inout, std::size_t count, ReduceOp op) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (std::size_t i = 0; i < count; ++i) {
    switch (op) {
      case ReduceOp::Prod: b[i] = static_cast<T>(static_cast<unsigned>(a[i]) * static_cast<unsigned>(b[i])); break;
      case ReduceOp::Max: b[i] = a[i] > b[i] ? a[i] : b[i]; break;
      case ReduceOp::Min: b[i] = a[i] < b[i] ? a[i] : b[i]; break;
      default: b[i] = static_cast<T>(static_cast<unsigned>(a[i]) + static_cast<unsigned>(b[i])); break;  // wraps
    }
  }
}

template <class T>
void divide_as(void* data, std::size_t count, int divisor) {
  T* p = static_cast<T*>(data);
  for (std::size_t i = 0; i < count; ++i) p[i] = static_cast<T>(p[i] / static_cast<T>(divisor));
}

}  // namespace

void reduce_on_host(const void* in, void* inout, std::size_t count, DataType type, ReduceOp op) {
  if (type == DataType::Int8) return reduce_bytes<std::int8_t>(in, inout, count, op);
  if (type == DataType::UInt8) return reduce_bytes<std::uint8_t>(in, inout, count, op);
  const auto* a = static_cast<const std::uint16_t*>(in);
  auto* b = static_cast<std::uint16_t*>(inout);
  const bool half = type == DataType::Float16;
  for (std::size_t i = 0; i < count; ++i) {
    float x = half ? half_to_float(a[i]) : bfloat16_to_float(a[i]);
    float y = half ? half_to_float(b[i]) : bfloat16_to_float(b[i]);
    float r = combine(x, y, op);
    b[i] = half ? support::double_to_half_bits(r) : support::double_to_bfloat16_bits(r);
  }
}

void divide_elements(void* data, std::size_t count, DataType type, int divisor) {
  switch (type) {
    case DataType::Int8: divide_as<std::int8_t>(data, count, divisor); break;
    case DataType::UInt8: divide_as<std::uint8_t>(data, count, divisor); break;
    case DataType::Int32: divide_as<std::int32_t>(data, count, divisor); break;
    case DataType::UInt32: divide_as<std::uint32_t>(data, count, divisor); break;
    case DataType::Int64: divide_as<std::int64_t>(data, count, divisor); break;
    case DataType::UInt64: divide_as<std::uint64_t>(data, count, divisor); break;
    case DataType::Float32: divide_as<float>(data, count, divisor); break;
    case DataType::Float64: divide_as<double>(data, count, divisor); break;
    case DataType::Float16:
    case DataType::BFloat16: {
      auto* p = static_cast<std::uint16_t*>(data);
      const bool half = type == DataType::Float16;
      for (std::size_t i = 0; i < count; ++i) {
        float x = (half ? half_to_float(p[i]) : bfloat16_to_float(p[i])) / static_cast<float>(divisor);
        p[i] = half ? support::double_to_half_bits(x) : support::double_to_bfloat16_bits(x);
      }
      break;
    }
  }
}

}  // namespace cuhost::dist
