// The queue of compile warnings (see compile_warnings.h).
#include "support/compile_warnings.h"

#include <mutex>

namespace cuhost {

namespace {

std::mutex& queue_mutex() {
  static std::mutex m;
  return m;
}

std::vector<std::pair<WarningCategory, std::string>>& queue() {
  static std::vector<std::pair<WarningCategory, std::string>> q;
  return q;
}

}  // namespace

void report_compile_warning(WarningCategory category, std::string message) {
  std::lock_guard<std::mutex> lock(queue_mutex());
  queue().emplace_back(category, std::move(message));
}

std::vector<std::pair<WarningCategory, std::string>> take_compile_warnings() {
  std::lock_guard<std::mutex> lock(queue_mutex());
  std::vector<std::pair<WarningCategory, std::string>> out;
  out.swap(queue());
  return out;
}

}  // namespace cuhost
