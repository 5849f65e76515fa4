// Reads CUHOST_SATURATING_FLOAT_TO_INT once (saturating_conversions.h).
#include "codegen/lowering/saturating_conversions.h"

#include <cstdlib>
#include <cstring>

namespace cuhost::codegen {

bool saturating_float_to_int() {
  static const bool on = [] {
    const char* v = std::getenv("CUHOST_SATURATING_FLOAT_TO_INT");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

}  // namespace cuhost::codegen
