// Stopping a CPU-backend kernel that runs too long (--kernel-timeout). A
// GPU thread cannot be killed, so kernels compiled while a timeout is set
// carry a cancellation point at every loop header (codegen/cpu_cancellation.h):
// one relaxed load of a process-wide flag. A watchdog raises the flag when a
// launch passes its deadline; each thread then leaves the kernel at its next
// loop iteration (leave_kernel.h), and the launch fails with a KernelError
// naming the kernel and the limit. Code without loops always ends on its own;
// a foreign host function that loops forever has no cancellation point.
#pragma once

#include <cstdint>
#include <string>

extern "C" {
// The flag the generated code polls (nonzero: leave the kernel now).
extern std::int32_t cuhost_cpu_cancel_requested;
// Called by generated code when it sees the flag; does not return.
[[noreturn]] void cuhost_cpu_cancelled();
}

namespace cuhost::cpu {

// The limit for every CPU launch of the process, in seconds (0: none, the
// default). Set once from the runtime options before kernels compile.
void set_kernel_timeout(double seconds);
double kernel_timeout();

// Watches one launch: from construction, after kernel_timeout() seconds it
// raises the flag, and on_timeout() is told so it can record the error.
// The destructor stops watching and lowers the flag.
class LaunchWatch {
 public:
  LaunchWatch(const std::string& kernel_name, void (*on_timeout)(void* arg, const std::string& message), void* arg);
  ~LaunchWatch();
  LaunchWatch(const LaunchWatch&) = delete;
  LaunchWatch& operator=(const LaunchWatch&) = delete;

 private:
  bool active_ = false;
};

}  // namespace cuhost::cpu
