// The device-memory quota's count (see memory_quota.h). The count is one
// atomic updated with compare-and-swap, so concurrent allocations from many
// threads never pass the quota together.
#include "support/memory_quota.h"

#include <atomic>
#include <map>
#include <mutex>

#include "support/diagnostics.h"

namespace cuhost::support {

namespace {

std::atomic<std::size_t> g_quota{0};
std::atomic<std::size_t> g_in_use{0};

struct RawAllocations {
  std::mutex mutex;
  std::map<std::uintptr_t, std::size_t> charged;  // address -> bytes charged
};
RawAllocations& raw_allocations() {
  static auto* r = new RawAllocations();  // never destroyed: frees may run during exit
  return *r;
}

thread_local int t_uncounted_depth = 0;

}  // namespace

UncountedAllocations::UncountedAllocations() { ++t_uncounted_depth; }
UncountedAllocations::~UncountedAllocations() { --t_uncounted_depth; }
bool allocations_counted() { return t_uncounted_depth == 0; }

void set_memory_quota(std::size_t bytes) { g_quota.store(bytes, std::memory_order_relaxed); }

std::size_t memory_quota() { return g_quota.load(std::memory_order_relaxed); }

std::size_t memory_quota_in_use() { return g_in_use.load(std::memory_order_relaxed); }

bool try_charge_memory_quota(std::size_t bytes) {
  std::size_t used = g_in_use.load(std::memory_order_relaxed);
  for (;;) {
    const std::size_t quota = g_quota.load(std::memory_order_relaxed);
    if (quota && (bytes > quota || used > quota - bytes)) return false;
    if (g_in_use.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed)) return true;
  }
}

void charge_memory_quota(std::size_t bytes, const char* driver_call) {
  if (try_charge_memory_quota(bytes)) return;
  const std::size_t quota = memory_quota();
  throw UserError(ErrorKind::CudaAPIError, concat(driver_call, " failed: CUDA_ERROR_OUT_OF_MEMORY allocating ", bytes,
                                                  " bytes: past the device-memory quota of ", describe_bytes(quota),
                                                  " (--memory-quota), with ", memory_quota_in_use(), " bytes in use"));
}

void refund_memory_quota(std::size_t bytes) {
  if (bytes) g_in_use.fetch_sub(bytes, std::memory_order_relaxed);
}

void remember_raw_allocation(std::uintptr_t address, std::size_t charged) {
  RawAllocations& r = raw_allocations();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.charged[address] = charged;
}

void refund_raw_allocation(std::uintptr_t address) {
  std::size_t charged = 0;
  {
    RawAllocations& r = raw_allocations();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.charged.find(address);
    if (it == r.charged.end()) return;
    charged = it->second;
    r.charged.erase(it);
  }
  refund_memory_quota(charged);
}

std::string describe_bytes(std::size_t bytes) {
  static const char* const kUnits[] = {"TiB", "GiB", "MiB", "KiB"};
  for (int i = 0; i < 4; ++i) {
    const std::size_t unit = std::size_t(1) << (10 * (4 - i));
    if (bytes >= unit && bytes % unit == 0) return concat(bytes / unit, " ", kUnits[i]);
  }
  return concat(bytes, " bytes");
}

}  // namespace cuhost::support
