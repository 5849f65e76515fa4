// Verbose logging and stage timing. With -v/--verbose every compile stage
// prints its wall time on stderr ("cuhost: [saxpy] typing 0.41 ms"); without
// it the timers cost one branch. Never used on the launch hot path.
#pragma once

#include <chrono>
#include <string>

namespace cuhost::log {

void set_verbose(bool on);
bool verbose();

// Prints "cuhost: <message>" on stderr when verbose.
void info(const std::string& message);

// Times a named stage of a named function; prints when destroyed (verbose only).
class StageTimer {
 public:
  StageTimer(std::string function, std::string stage);
  ~StageTimer();
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  std::string function_;
  std::string stage_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cuhost::log
