// Printing of foreign signatures in numba's spelling, for error messages and
// for declare_device round trips.
#include "ir/foreign.h"

namespace cuhost::ir {

std::string Signature::str() const {
  std::string out = return_type ? return_type->str() : std::string();
  out += "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    out += args[i]->str();
  }
  return out + ")";
}

}  // namespace cuhost::ir
