// The joins of support/exit_joins.h: one list, kept for the process, and
// the exit handler that runs it registered after the newest library load.
#include "support/exit_joins.h"

#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <vector>

namespace cuhost::support {
namespace {

struct Join {
  std::function<void()> run;
  pid_t owner;  // the process whose thread it joins (a forked child skips its parent's)
};

std::mutex g_mutex;
std::vector<Join>* g_joins = nullptr;  // kept for the process (exit handlers use it)
bool g_handler_after_last_load = false;
std::mutex g_running;  // one run of the joins at a time (the same thread is never joined twice at once)

void run_joins() {
  std::vector<std::function<void()>> mine;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_joins) return;
    for (const Join& join : *g_joins)
      if (join.owner == getpid()) mine.push_back(join.run);
  }
  if (mine.empty()) return;
  std::lock_guard<std::mutex> running(g_running);
  for (auto it = mine.rbegin(); it != mine.rend(); ++it) (*it)();
}

void register_handler_locked() {
  if (g_handler_after_last_load) return;
  std::atexit(run_joins);
  g_handler_after_last_load = true;
}

}  // namespace

void join_at_exit(std::function<void()> join) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_joins) g_joins = new std::vector<Join>;
  g_joins->push_back(Join{std::move(join), getpid()});
  register_handler_locked();
}

void run_joins_now() { run_joins(); }

void joins_run_before_last_load() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_handler_after_last_load = false;
  if (g_joins && !g_joins->empty()) register_handler_locked();
}

}  // namespace cuhost::support
