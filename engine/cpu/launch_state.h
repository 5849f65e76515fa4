// The error state one launch shares between its workers: the first error
// recorded (index out of bounds, kernel error, deadlock) wins; once set,
// workers stop taking new blocks and launch() throws it on the calling thread
// after every worker finished. Runtime functions called from JIT-ed code only
// record here; nothing throws through JIT frames.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "cpu/launcher.h"
#include "support/diagnostics.h"
#include "support/kernel_error.h"

namespace cuhost::cpu {

class LaunchState {
 public:
  explicit LaunchState(const CpuLaunch& launch) : launch_(launch) {}

  const CpuLaunch& launch() const { return launch_; }
  bool failed() const { return failed_.load(std::memory_order_relaxed); }

  // Records the error if it is the first one; never throws.
  void record(ErrorKind kind, std::string message) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (has_error_) return;
    has_error_ = true;
    kind_ = kind;
    message_ = std::move(message);
    failed_.store(true, std::memory_order_relaxed);
  }
  // Records a kernel's report (support/kernel_error.h) if it is the first
  // error; the caller builds it inside a try (building may allocate).
  void record(KernelErrorReport report) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (has_error_) return;
    has_error_ = true;
    kind_ = kernel_error_kind(report);
    report_ = std::move(report);
    failed_.store(true, std::memory_order_relaxed);
  }

  // Throws the recorded error, if any (calling thread, after the workers finished).
  void rethrow() const {
    if (!has_error_) return;
    if (report_) throw KernelErrorRaised(*report_);
    throw UserError(kind_, message_);
  }

 private:
  const CpuLaunch& launch_;
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  bool has_error_ = false;
  ErrorKind kind_ = ErrorKind::KernelError;
  std::string message_;
  std::optional<KernelErrorReport> report_;  // set for a kernel's report
};

}  // namespace cuhost::cpu
