// CPU-backend kernel timeouts (see cancellation.h).
#include "cpu/cancellation.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "cpu/leave_kernel.h"
#include "support/diagnostics.h"

extern "C" {
std::int32_t cuhost_cpu_cancel_requested = 0;

[[noreturn]] void cuhost_cpu_cancelled() { cuhost::cpu::leave_kernel(); }
}

namespace cuhost::cpu {

namespace {

std::atomic<double> g_runtime_seconds{0};
std::atomic<double> g_script_seconds{0};
std::atomic<bool> g_script_set{false};
thread_local double t_launch_seconds = 0;  // this thread's innermost LaunchDeadline (0: none)

// One thread for the process, sleeping until a watched launch passes its
// deadline. Launches are watched one at a time (LaunchWatch holds
// g_watched for the launch), so one slot suffices.
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* w = new Watchdog();  // never destroyed: its thread lives as long as the process
    return *w;
  }

  void arm(double seconds, std::string message, void (*on_timeout)(void*, const std::string&), void* arg) {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = true;
    ++generation_;
    message_ = std::move(message);
    on_timeout_ = on_timeout;
    arg_ = arg;
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    cv_.notify_one();
  }

  void disarm() {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = false;
    ++generation_;
    cv_.notify_one();
  }

 private:
  Watchdog() {
    std::thread([this] { run(); }).detach();
  }

  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (!armed_) {
        cv_.wait(lock);
        continue;
      }
      std::uint64_t generation = generation_;
      cv_.wait_until(lock, deadline_, [&] { return !armed_ || generation_ != generation; });
      if (armed_ && generation_ == generation && std::chrono::steady_clock::now() >= deadline_) {
        on_timeout_(arg_, message_);  // records the launch's error first, so threads that stop see it
        __atomic_store_n(&cuhost_cpu_cancel_requested, 1, __ATOMIC_RELAXED);
        armed_ = false;
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  bool armed_ = false;
  std::uint64_t generation_ = 0;
  std::chrono::steady_clock::time_point deadline_;
  std::string message_;
  void (*on_timeout_)(void*, const std::string&) = nullptr;
  void* arg_ = nullptr;
};

std::mutex g_watched;

}  // namespace

void set_kernel_timeout(double seconds) {
  g_runtime_seconds.store(seconds > 0 ? seconds : 0, std::memory_order_relaxed);
}
double kernel_timeout() { return g_runtime_seconds.load(std::memory_order_relaxed); }

void set_script_kernel_timeout(double seconds) {
  g_script_seconds.store(seconds > 0 ? seconds : 0, std::memory_order_relaxed);
  g_script_set.store(true, std::memory_order_release);
}

void clear_script_kernel_timeout() { g_script_set.store(false, std::memory_order_release); }

Deadline current_deadline() {
  Deadline d;
  if (g_script_set.load(std::memory_order_acquire)) {
    d.seconds = g_script_seconds.load(std::memory_order_relaxed);
    d.scope = DeadlineScope::Script;
  } else {
    d.seconds = g_runtime_seconds.load(std::memory_order_relaxed);
  }
  if (t_launch_seconds > 0 && (d.seconds <= 0 || t_launch_seconds <= d.seconds)) {
    d.seconds = t_launch_seconds;
    d.scope = DeadlineScope::Launch;
  }
  return d;
}

double push_launch_deadline(double seconds) {
  const double outer = t_launch_seconds;
  if (seconds > 0 && (outer <= 0 || seconds < outer)) t_launch_seconds = seconds;
  return outer;
}

void restore_launch_deadline(double outer) { t_launch_seconds = outer > 0 ? outer : 0; }

LaunchDeadline::LaunchDeadline(double seconds) : outer_(push_launch_deadline(seconds)) {}

LaunchDeadline::~LaunchDeadline() { restore_launch_deadline(outer_); }

std::string deadline_passed(const std::string& kernel_name, const Deadline& deadline) {
  switch (deadline.scope) {
    case DeadlineScope::Launch:
      return concat("kernel '", kernel_name, "' ran longer than its launch's deadline of ", deadline.seconds,
                    " s (per launch: cuhost.kernel_deadline)");
    case DeadlineScope::Script:
      return concat("kernel '", kernel_name, "' ran longer than the script's kernel timeout of ", deadline.seconds,
                    " s (per script: Runtime::set_kernel_timeout)");
    case DeadlineScope::Runtime: break;
  }
  return concat("kernel '", kernel_name, "' ran longer than the kernel timeout of ", deadline.seconds,
                " s (--kernel-timeout)");
}

LaunchWatch::LaunchWatch(const std::string& kernel_name, bool cancellable,
                         void (*on_timeout)(void*, const std::string&), void* arg) {
  if (!cancellable) return;
  const Deadline deadline = current_deadline();
  if (deadline.seconds <= 0) return;
  g_watched.lock();
  active_ = true;
  Watchdog::instance().arm(deadline.seconds,
                           concat(deadline_passed(kernel_name, deadline),
                                  " and was stopped: each of its threads "
                                  "left the kernel at its next loop iteration, so what it wrote is incomplete"),
                           on_timeout, arg);
}

LaunchWatch::~LaunchWatch() {
  if (!active_) return;
  Watchdog::instance().disarm();
  // Every worker has left the kernel by now (launch() returns only then).
  __atomic_store_n(&cuhost_cpu_cancel_requested, 0, __ATOMIC_RELAXED);
  g_watched.unlock();
}

}  // namespace cuhost::cpu
