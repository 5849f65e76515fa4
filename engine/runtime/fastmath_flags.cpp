// Names and LLVM form of the fastmath={...} flags (see fastmath_flags.h).
#include "runtime/fastmath_flags.h"

#include <llvm/IR/FMF.h>

#include <utility>

namespace cuhost::runtime {
namespace {

const std::pair<const char*, unsigned> kNames[] = {
    {"afn", kFmfAfn},   {"arcp", kFmfArcp}, {"contract", kFmfContract}, {"ninf", kFmfNinf},
    {"nnan", kFmfNnan}, {"nsz", kFmfNsz},   {"reassoc", kFmfReassoc},
};

}  // namespace

unsigned fast_math_flag(const std::string& name) {
  if (name == "fast") {
    unsigned all = 0;
    for (const auto& [n, bit] : kNames) all |= bit;
    return all;
  }
  for (const auto& [n, bit] : kNames)
    if (name == n) return bit;
  return 0;
}

std::string fast_math_flag_names() {
  std::string out;
  for (const auto& [n, bit] : kNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out + ", fast";
}

llvm::FastMathFlags llvm_fast_math_flags(unsigned bits) {
  llvm::FastMathFlags f;
  f.setAllowContract(bits & kFmfContract);
  f.setAllowReciprocal(bits & kFmfArcp);
  f.setNoNaNs(bits & kFmfNnan);
  f.setNoInfs(bits & kFmfNinf);
  f.setNoSignedZeros(bits & kFmfNsz);
  f.setApproxFunc(bits & kFmfAfn);
  f.setAllowReassoc(bits & kFmfReassoc);
  return f;
}

}  // namespace cuhost::runtime
