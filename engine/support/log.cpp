// Verbose logging and stage timers (see log.h).
#include "support/log.h"

#include <atomic>
#include <cstdio>

namespace cuhost::log {

static std::atomic<bool> g_verbose{false};

void set_verbose(bool on) { g_verbose.store(on); }
bool verbose() { return g_verbose.load(std::memory_order_relaxed); }

void info(const std::string& message) {
  if (verbose()) std::fprintf(stderr, "cuhost: %s\n", message.c_str());
}

StageTimer::StageTimer(std::string function, std::string stage)
    : function_(std::move(function)), stage_(std::move(stage)), start_(std::chrono::steady_clock::now()) {}

StageTimer::~StageTimer() {
  if (!verbose()) return;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(stderr, "cuhost: [%s] %-12s %8.3f ms\n", function_.c_str(), stage_.c_str(), ms);
}

}  // namespace cuhost::log
