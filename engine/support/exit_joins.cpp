// The joins of support/exit_joins.h: one list, and the exit handler that
// empties it registered after the newest library load.
#include "support/exit_joins.h"

#include <cstdlib>
#include <mutex>
#include <vector>

namespace cuhost::support {
namespace {

std::mutex g_mutex;
std::vector<std::function<void()>>* g_joins = nullptr;  // kept for the process (exit handlers use it)
bool g_handler_after_last_load = false;

void run_joins() {
  for (;;) {
    std::function<void()> join;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      if (!g_joins || g_joins->empty()) return;
      join = std::move(g_joins->back());
      g_joins->pop_back();
    }
    join();
  }
}

void register_handler_locked() {
  if (g_handler_after_last_load) return;
  std::atexit(run_joins);
  g_handler_after_last_load = true;
}

}  // namespace

void join_at_exit(std::function<void()> join) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_joins) g_joins = new std::vector<std::function<void()>>;
  g_joins->push_back(std::move(join));
  register_handler_locked();
}

void joins_run_before_last_load() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_handler_after_last_load = false;
  if (g_joins && !g_joins->empty()) register_handler_locked();
}

}  // namespace cuhost::support
