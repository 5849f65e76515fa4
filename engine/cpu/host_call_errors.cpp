// The per-thread error sink of host calls (host_call_errors.h).
#include "cpu/host_call_errors.h"

namespace cuhost::cpu {
namespace {
thread_local HostCallError* t_sink = nullptr;
}

HostCallError* host_call_sink() { return t_sink; }

HostCallScope::HostCallScope(HostCallError* sink) : outer_(t_sink) { t_sink = sink; }
HostCallScope::~HostCallScope() { t_sink = outer_; }

}  // namespace cuhost::cpu
