// Compile-time constant values: literals in kernel source and frozen globals
// (numbers, booleans, None, strings, tuples of those, and arrays used as
// constants). Kept free of Python so the compiler runs without the GIL.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/types.h"

namespace cuhost::ir {

struct ConstValue {
  enum class Kind : std::uint8_t { None, Bool, Int, UInt, Float, Complex, String, Tuple };
  Kind kind = Kind::None;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double f = 0.0;
  std::complex<double> c;
  std::string s;
  std::vector<ConstValue> items;
  const Type* type = nullptr;  // the value's type (numba's typing of the literal or NumPy scalar)

  static ConstValue none();
  static ConstValue boolean(bool v);
  static ConstValue integer(std::int64_t v, const Type* t = nullptr);            // default int64
  static ConstValue unsigned_integer(std::uint64_t v, const Type* t = nullptr);  // default uint64
  static ConstValue floating(double v, const Type* t = nullptr);                 // default float64
  static ConstValue complex(std::complex<double> v, const Type* t = nullptr);
  static ConstValue string(std::string v);
  static ConstValue bytes(std::string v);  // kind String, typed as a bytes literal
  static ConstValue tuple(std::vector<ConstValue> items);
  std::string repr() const;
};

// A NumPy array frozen as a compile-time constant (global arrays read in a
// kernel, cuda.const.array_like). The bytes are copied at capture time.
struct ArrayConstant {
  const Type* dtype = nullptr;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  // bytes, of the copy (always C-contiguous)
  std::vector<std::uint8_t> data;
};

}  // namespace cuhost::ir
