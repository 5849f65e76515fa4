// Names of the fastmath={...} flags (see fastmath_flags.h).
#include "model/fastmath_flags.h"

#include <utility>

namespace cuhost::model {
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

}  // namespace cuhost::model
