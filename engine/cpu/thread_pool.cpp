// Implementation of the persistent worker pool (see thread_pool.h). A run
// bumps a generation counter; workers spin on it for a short while, then
// sleep on a condition variable. The caller works as worker 0 and then waits
// (spin, then sleep) for the others. A forked child starts a new pool.
#include "cpu/thread_pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cuhost::cpu {

namespace {
constexpr int kSpin = 4000;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The cores this process may use: its affinity mask, capped by a cgroup v2
// CPU quota (a container started with --cpus=2 on a 64-core host gets 2
// workers, not 64 threads contending for two cores' time).
unsigned usable_cores() {
  unsigned n = std::thread::hardware_concurrency();
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) n = static_cast<unsigned>(CPU_COUNT(&set));
  if (std::FILE* f = std::fopen("/sys/fs/cgroup/cpu.max", "r")) {
    char quota[32] = {0};
    long long period = 0;
    if (std::fscanf(f, "%31s %lld", quota, &period) == 2 && std::strcmp(quota, "max") != 0 && period > 0) {
      long long q = std::atoll(quota);
      if (q > 0) n = std::min<unsigned>(n, static_cast<unsigned>(std::max<long long>(1, (q + period - 1) / period)));
    }
    std::fclose(f);
  }
  return n == 0 ? 1 : n;
}

unsigned default_size() {
  if (const char* env = std::getenv("CUHOST_CPU_WORKERS")) {
    long v = std::strtol(env, nullptr, 10);
    if (v >= 1 && v <= 4096) return static_cast<unsigned>(v);
  }
  return usable_cores();
}
}  // namespace

namespace {
// Worker threads do not survive fork(): a child process (Python's
// multiprocessing forks by default) gets a fresh pool on its first launch;
// the parent's pool object is abandoned there (its locks may be held).
std::atomic<ThreadPool*> current_pool{nullptr};
std::atomic<bool> forked{false};
std::mutex create_mutex;
void mark_forked() { forked.store(true, std::memory_order_relaxed); }
}  // namespace

ThreadPool& ThreadPool::instance() {
  ThreadPool* pool = current_pool.load(std::memory_order_acquire);
  if (pool && !forked.load(std::memory_order_relaxed)) return *pool;
  static std::once_flag atfork_once;
  std::call_once(atfork_once, [] { pthread_atfork(nullptr, nullptr, &mark_forked); });
  if (forked.load(std::memory_order_relaxed)) {
    // Only the forking thread exists in the child; create_mutex may have
    // been held in the parent, so it is not used here.
    forked.store(false, std::memory_order_relaxed);
    pool = new ThreadPool(default_size());
    current_pool.store(pool, std::memory_order_release);
    return *pool;
  }
  std::lock_guard<std::mutex> lock(create_mutex);
  pool = current_pool.load(std::memory_order_acquire);
  if (!pool) {
    pool = new ThreadPool(default_size());
    current_pool.store(pool, std::memory_order_release);
  }
  return *pool;
}

ThreadPool::ThreadPool(unsigned size) : size_(size) {
  threads_.reserve(size_ - 1);
  for (unsigned i = 1; i < size_; ++i) {
    threads_.emplace_back([this, i] { worker_loop(i); });
    threads_.back().detach();
  }
}

void ThreadPool::worker_loop(unsigned index) {
  std::uint64_t seen = 0;
  for (;;) {
    std::uint64_t g = generation_.load(std::memory_order_acquire);
    for (int k = 0; g == seen && k < kSpin; ++k) {
      cpu_relax();
      g = generation_.load(std::memory_order_acquire);
    }
    if (g == seen) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      g = generation_.load(std::memory_order_acquire);
    }
    seen = g;
    if (index < count_) task_(arg_, index);
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

void ThreadPool::run(unsigned count, Task task, void* arg) {
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  if (count > size_) count = size_;
  if (count <= 1 || size_ == 1) {
    task(arg, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = task;
    arg_ = arg;
    count_ = count;
    remaining_.store(size_ - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }
  wake_.notify_all();
  task(arg, 0);
  for (int k = 0; k < kSpin && remaining_.load(std::memory_order_acquire) != 0; ++k) cpu_relax();
  if (remaining_.load(std::memory_order_acquire) != 0) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return remaining_.load(std::memory_order_acquire) == 0; });
  }
}

}  // namespace cuhost::cpu
