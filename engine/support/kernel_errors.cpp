// Run-time kernel error texts shared by both backends (see kernel_errors.h).
#include "support/kernel_errors.h"

#include <cstdio>

#include "support/diagnostics.h"

namespace cuhost {

std::string thread_place(const std::int64_t tid[3], const std::int64_t bid[3]) {
  return concat("thread (", tid[0], ",", tid[1], ",", tid[2], "), block (", bid[0], ",", bid[1], ",", bid[2], ")");
}

std::string index_error_text(std::int64_t index, std::int64_t axis, std::int64_t extent, const std::string& array,
                             const std::string& kernel, const std::string& place) {
  return concat("index ", index, " is out of bounds for axis ", axis, " with size ", extent, " (array '", array,
                "' in kernel '", kernel, "', ", place, ")");
}

std::string kernel_error_text(const std::string& kernel, const std::string& message, std::int64_t code,
                              const std::string& place) {
  // A raise in the kernel (codegen/lowering/exceptions.cpp): keep the class
  // marker for the host and complete numba-cuda's message with the position,
  // "tid=[x, y, z] ctaid=[x, y, z]".
  size_t split = message.find('\x1f');
  if (!message.empty() && message[0] == '\x1b' && split != std::string::npos) {
    long t[3] = {0, 0, 0}, b[3] = {0, 0, 0};
    std::sscanf(place.c_str(), "thread (%ld,%ld,%ld), block (%ld,%ld,%ld)", &t[0], &t[1], &t[2], &b[0], &b[1], &b[2]);
    std::string args = message.substr(split + 1);
    return concat(message.substr(0, split), "tid=[", t[0], ", ", t[1], ", ", t[2], "] ctaid=[", b[0], ", ", b[1], ", ",
                  b[2], "]", args.empty() ? "" : ": ", args);
  }
  return concat("error in kernel '", kernel, "': ", message, " (code ", code, ", ", place, ")");
}

}  // namespace cuhost
