// fastmath={'contract', 'nnan', ...}: numba-cuda accepts, besides a bool, a
// set of LLVM fast-math flag names; only those flags go on the floating-point
// instructions (no flush-to-zero and no approximate division, square root or
// libdevice functions, which only fastmath=True brings). The bits are ours;
// codegen converts them to llvm::FastMathFlags (lowering/lowerer.cpp).
#pragma once

#include <string>

namespace cuhost::model {

enum FastMathFlag : unsigned {
  kFmfContract = 1u << 0,
  kFmfArcp = 1u << 1,
  kFmfNnan = 1u << 2,
  kFmfNinf = 1u << 3,
  kFmfNsz = 1u << 4,
  kFmfAfn = 1u << 5,
  kFmfReassoc = 1u << 6,
};

// The bit of a flag name ("contract", "arcp", "nnan", "ninf", "nsz", "afn",
// "reassoc"; "fast" is all of them), or 0 for an unknown name.
unsigned fast_math_flag(const std::string& name);

// The valid names, for error messages: "afn, arcp, contract, ...".
std::string fast_math_flag_names();

}  // namespace cuhost::model
