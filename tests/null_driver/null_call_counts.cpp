// The per-entry-point call counts of the null driver (see null_call_counts.h).
#include "null_call_counts.h"

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "null_failures.h"

namespace {

std::mutex g_mutex;
std::vector<std::pair<const void*, std::atomic<long>*>> g_counters;  // in the order of first calls
std::string g_snapshot;  // what cuhostNullCallCounts last returned (kept alive for the caller)

}  // namespace

namespace null_driver {

bool register_call_counter(const void* entry, std::atomic<long>* counter) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_counters.emplace_back(entry, counter);
  return true;
}

}  // namespace null_driver

extern "C" __attribute__((visibility("default"))) const char* cuhostNullCallCounts() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_snapshot.clear();
  for (const auto& [entry, counter] : g_counters) {
    const long n = counter->load(std::memory_order_relaxed);
    if (n) g_snapshot += std::string(null_driver::entry_name(entry)) + " " + std::to_string(n) + "\n";
  }
  return g_snapshot.c_str();
}

extern "C" __attribute__((visibility("default"))) void cuhostNullClearCallCounts() {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const auto& entry : g_counters) entry.second->store(0, std::memory_order_relaxed);
}
