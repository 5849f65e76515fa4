// The queue of compile warnings (see compile_warnings.h).
#include "support/compile_warnings.h"

#include <atomic>
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

std::atomic<std::uint64_t>& reported() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}

}  // namespace

void report_compile_warning(WarningCategory category, std::string message) {
  std::lock_guard<std::mutex> lock(queue_mutex());
  // One warning once per compile: a function lowered twice (for the CPU and,
  // checked alongside, for PTX) reports the same thing twice.
  for (const auto& [c, m] : queue())
    if (c == category && m == message) return;
  queue().emplace_back(category, std::move(message));
  ++reported();
}

std::uint64_t compile_warnings_reported() { return reported().load(); }

std::vector<std::pair<WarningCategory, std::string>> take_compile_warnings() {
  std::lock_guard<std::mutex> lock(queue_mutex());
  std::vector<std::pair<WarningCategory, std::string>> out;
  out.swap(queue());
  return out;
}

}  // namespace cuhost
