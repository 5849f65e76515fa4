// Stopping a CPU-backend kernel that runs too long (--kernel-timeout, a
// script's or a launch's deadline), and which deadline applies to a launch
// (both backends read it here). A GPU thread cannot be killed, so the
// variant of a kernel that launches under a deadline carries a cancellation
// point at every loop header (codegen/cpu_cancellation.h):
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

// Where the deadline that applies to a launch comes from; the KernelError of
// a stopped launch names it.
enum class DeadlineScope {
  Runtime,  // --kernel-timeout, RuntimeOptions::kernel_timeout, CUHOST_KERNEL_TIMEOUT
  Script,   // Runtime::set_kernel_timeout, between run_file() calls
  Launch,   // cuhost.kernel_deadline(...) in a script, Kernel::launch_with_deadline in C++
};

struct Deadline {
  double seconds = 0;  // 0: none
  DeadlineScope scope = DeadlineScope::Runtime;
};

// The runtime's limit, in seconds (0: none, the default). Set once from the
// runtime options.
void set_kernel_timeout(double seconds);
double kernel_timeout();

// The limit of the scripts run from now on, replacing the runtime's for
// them (0: no limit for them); clear_script_kernel_timeout() returns to the
// runtime's.
void set_script_kernel_timeout(double seconds);
void clear_script_kernel_timeout();

// The deadline a launch from this thread gets now: the innermost per-launch
// deadline of this thread (LaunchDeadline), else the script's, else the
// runtime's. A per-launch deadline only tightens: when the script's or the
// runtime's limit is shorter, that one applies (a script cannot escape its
// host's limit). Read on every launch: a thread-local and two relaxed loads.
Deadline current_deadline();

// The per-launch deadline of this thread's launches from now on, tightened
// to `seconds` (> 0; an outer one that is shorter stays); returns the one it
// replaced, for restore_launch_deadline(). For callers that cannot hold a
// LaunchDeadline in scope (the Python context manager).
double push_launch_deadline(double seconds);
void restore_launch_deadline(double outer);

// A per-launch deadline for the launches this thread makes while it lives
// (nested ones tighten it further).
class LaunchDeadline {
 public:
  explicit LaunchDeadline(double seconds);
  ~LaunchDeadline();
  LaunchDeadline(const LaunchDeadline&) = delete;
  LaunchDeadline& operator=(const LaunchDeadline&) = delete;

 private:
  double outer_;
};

// The first words of a stopped launch's KernelError: "kernel 'k' ran longer
// than the kernel timeout of 0.5 s (--kernel-timeout)", with the scope's
// wording (docs/RELIABILITY.md).
std::string deadline_passed(const std::string& kernel_name, const Deadline& deadline);

// Watches one launch of a kernel compiled with cancellation points
// (`cancellable`) under current_deadline(): from construction, at the
// deadline it raises the flag, and on_timeout() is told so it can record the
// error. Without a deadline, or for a kernel without points (which could
// not be stopped), it does nothing. The destructor stops watching and
// lowers the flag.
class LaunchWatch {
 public:
  LaunchWatch(const std::string& kernel_name, bool cancellable,
              void (*on_timeout)(void* arg, const std::string& message), void* arg);
  ~LaunchWatch();
  LaunchWatch(const LaunchWatch&) = delete;
  LaunchWatch& operator=(const LaunchWatch&) = delete;

 private:
  bool active_ = false;
};

}  // namespace cuhost::cpu
