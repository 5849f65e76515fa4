// Errors of compiled code called from the host (numba.njit functions, see
// codegen/host_entry.h) rather than launched: there is no grid whose launch
// state could record them. The caller installs a sink for the duration of
// the call; the CPU runtime's error functions (cpu_abi.h) record into it
// when one is installed on the calling thread, and the caller raises what
// was recorded once the call returned.
#pragma once

#include "support/kernel_error.h"

namespace cuhost::cpu {

// The first report of a host call (report.in_launch is false).
struct HostCallError {
  bool reported = false;
  KernelErrorReport report;
};

// The sink of the calling thread, or null outside host calls.
HostCallError* host_call_sink();

// Installs `sink` on this thread for its lifetime (nesting restores the outer one).
class HostCallScope {
 public:
  explicit HostCallScope(HostCallError* sink);
  ~HostCallScope();
  HostCallScope(const HostCallScope&) = delete;
  HostCallScope& operator=(const HostCallScope&) = delete;

 private:
  HostCallError* outer_;
};

}  // namespace cuhost::cpu
