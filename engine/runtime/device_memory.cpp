// Device memory for both backends (see device_memory.h). CPU allocations are
// 256-byte aligned like cuMemAlloc's, so kernels see the same alignment.
#include "runtime/device_memory.h"

#include <sys/sysinfo.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <vector>

#include "cpu/driver_model.h"
#include "cpu/ipc_memory.h"
#include "cuda/context.h"
#include "cuda/graph.h"
#include "cuda/memory.h"
#include "cuda/stream.h"
#include "runtime/access_order.h"
#include "runtime/devices.h"
#include "runtime/graph_capture.h"
#include "runtime/pending_frees.h"
#include "runtime/session.h"
#include "support/diagnostics.h"
#include "support/memory_quota.h"

namespace cuhost::runtime {

namespace {
constexpr std::size_t kAlignment = 256;

// The CPU backend's device and pinned memory. Running out is reported as
// the CUDA backend reports it (CudaAPIError naming the request), so scripts
// that catch it behave the same on both backends.
[[noreturn]] void out_of_host_memory(std::size_t bytes, const char* what) {
  throw UserError(ErrorKind::CudaAPIError,
                  concat("out of memory allocating ", bytes, " bytes of ", what,
                         " (CPU backend: CUDA_ERROR_OUT_OF_MEMORY; this memory is host memory)"));
}

// Whether `bytes` exceed the machine's memory and swap: such a request fails
// at once, as a GPU refuses more than it has, instead of being put to the
// allocator (which may be one that aborts on absurd sizes, as
// AddressSanitizer's does by default).
bool beyond_host_memory(std::size_t bytes) {
  struct sysinfo info {};
  if (sysinfo(&info) != 0) return false;
  const unsigned long long total = (static_cast<unsigned long long>(info.totalram) + info.totalswap) * info.mem_unit;
  return total > 0 && bytes > total;
}

void* aligned_host(std::size_t bytes, const char* what) {
  if (beyond_host_memory(bytes)) out_of_host_memory(bytes, what);
  std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = rounded >= bytes ? std::aligned_alloc(kAlignment, rounded) : nullptr;
  if (!p) out_of_host_memory(bytes, what);
  return p;
}

// The CPU device's memory: whole pages, so that an allocation can be shared
// with other processes in place (cpu/ipc_memory.h), and a registry of the
// live allocations (for find_allocation and IPC).
struct CpuAllocations {
  std::mutex mutex;
  std::map<std::uintptr_t, std::size_t> live;  // base -> bytes requested
};
CpuAllocations& cpu_allocations() {
  static auto* a = new CpuAllocations();  // never destroyed
  return *a;
}

std::uintptr_t cpu_device_alloc(std::size_t bytes) {
  if (beyond_host_memory(bytes)) out_of_host_memory(bytes, "device memory");
  const std::size_t page = cpu::page_size();
  std::size_t rounded = (bytes + page - 1) / page * page;
  void* p = rounded >= bytes ? std::aligned_alloc(page, rounded) : nullptr;
  if (!p) out_of_host_memory(bytes, "device memory");
  std::uintptr_t address = reinterpret_cast<std::uintptr_t>(p);
  CpuAllocations& a = cpu_allocations();
  std::lock_guard<std::mutex> lock(a.mutex);
  a.live[address] = bytes;
  return address;
}

void cpu_forget(std::uintptr_t address) {
  CpuAllocations& a = cpu_allocations();
  std::lock_guard<std::mutex> lock(a.mutex);
  a.live.erase(address);
}

CUstream as_stream(std::uintptr_t s) { return reinterpret_cast<CUstream>(s); }

// --- launch temporaries ------------------------------------------------------
constexpr std::size_t kPoolMaxBlock = std::size_t(1) << 20;  // larger temporaries are not pooled
constexpr std::size_t kPoolMaxPerBucket = 16;

thread_local bool t_temporary_active = false;
thread_local std::uintptr_t t_temporary_stream = 0;

struct TemporaryPool {
  std::mutex mutex;
  // (device, stream, size): the special stream handles (legacy, per-thread) exist on every device.
  std::map<std::tuple<int, std::uintptr_t, std::size_t>, std::vector<std::uintptr_t>> free_blocks;
};
TemporaryPool& temporary_pool() {
  static TemporaryPool* pool = new TemporaryPool();  // never destroyed: blocks live until exit
  return *pool;
}
std::size_t pool_bucket(std::size_t bytes) {
  std::size_t b = 256;
  while (b < bytes) b <<= 1;
  return b;
}

// Page-locked blocks handed out by PinnedAllocation: start -> size.
struct PinnedRanges {
  std::mutex mutex;
  std::map<std::uintptr_t, std::size_t> blocks;
};
PinnedRanges& pinned_ranges() {
  static PinnedRanges* ranges = new PinnedRanges();  // used until exit
  return *ranges;
}

void refuse_allocation_in_capture(const char* what, std::size_t bytes) {
  refuse_on_capturing_thread(concat("allocate ", bytes, " bytes of ", what),
                             "allocation is not a stream operation, so a graph cannot replay it (and the CUDA driver "
                             "refuses it during a capture); allocate before the capture begins");
}
}  // namespace

LaunchTemporaryScope::LaunchTemporaryScope(std::uintptr_t stream)
    : previous_active_(t_temporary_active), previous_stream_(t_temporary_stream) {
  t_temporary_active = true;
  t_temporary_stream = stream;
}

LaunchTemporaryScope::~LaunchTemporaryScope() {
  t_temporary_active = previous_active_;
  t_temporary_stream = previous_stream_;
}

bool device_is_host() { return session().backend != Backend::Cuda; }

void make_context_current() { make_device_current(current_device()); }

namespace {
ExternalAllocateFn g_external_allocate = nullptr;
std::atomic<std::uint64_t> g_external_devices{0};  // bit d: device d uses the external allocator

// Runs `attempt`; when it fails, releases the device's pending frees and runs
// it once more (numba-cuda's answer to CUDA_ERROR_OUT_OF_MEMORY).
template <typename Fn>
std::uintptr_t with_retry(int device, Fn attempt) {
  try {
    return attempt();
  } catch (const UserError&) {
    if (pending_frees(device).count == 0 || !flush_pending_frees(device)) throw;
  }
  return attempt();
}

// Frees cuhost's own device memory (runs from the pending-free queue) and
// gives `charged` bytes back to the quota: memory waiting in the queue is
// still held, so it counts until then.
std::function<void()> releaser(Backend backend, int device, std::uintptr_t address, std::size_t charged) {
  if (backend != Backend::Cuda)
    return [address, charged] {
      cpu::release_export(address);
      std::free(reinterpret_cast<void*>(address));
      support::refund_memory_quota(charged);
    };
  return [device, address, charged] {
    try {
      DeviceScope scope(device);  // freed in its own context; the thread's device is kept
      make_device_current(device);
      cuda::device_free(address);
    } catch (...) {
      // no context: the memory went with it
    }
    support::refund_memory_quota(charged);
  };
}

// Runs `allocate` with `charged` bytes charged to the quota first (nothing
// when zero); a failed allocation gives them back.
template <typename Fn>
std::uintptr_t charged_attempt(std::size_t charged, const char* driver_call, Fn allocate) {
  if (charged) support::charge_memory_quota(charged, driver_call);
  try {
    return allocate();
  } catch (...) {
    support::refund_memory_quota(charged);
    throw;
  }
}
}  // namespace

void set_external_allocator(ExternalAllocateFn allocate) { g_external_allocate = allocate; }

void use_external_allocator(int device, bool on) {
  if (device < 0 || device >= 64) return;
  std::uint64_t bit = std::uint64_t(1) << device;
  if (on)
    g_external_devices.fetch_or(bit);
  else
    g_external_devices.fetch_and(~bit);
}

bool uses_external_allocator(int device) {
  return device >= 0 && device < 64 && (g_external_devices.load(std::memory_order_relaxed) >> device & 1);
}

std::shared_ptr<DeviceAllocation> DeviceAllocation::allocate(std::size_t bytes, QuotaUse quota) {
  std::shared_ptr<DeviceAllocation> a(new DeviceAllocation());
  a->size_ = bytes;
  a->backend_ = session().backend;
  a->device_ = current_device();
  if (bytes == 0) return a;  // address 0: nothing to free
  if (capture_in_progress()) refuse_allocation_in_capture("device memory", bytes);
  if (a->backend_ == Backend::Cuda && !(t_temporary_active && bytes <= kPoolMaxBlock))
    a->order_ = std::make_shared<AccessOrder>();
  const std::size_t charge = quota == QuotaUse::Counted && support::allocations_counted() ? bytes : 0;
  if (g_external_allocate && uses_external_allocator(a->device_)) {
    // The external manager's memory counts too, given back when its handle
    // is released (the destructor). Only the quota's refusal is retried
    // after releasing the pending frees; the manager handles its own.
    if (charge)
      with_retry(a->device_, [&] { return charged_attempt(charge, "cuMemAlloc", [] { return std::uintptr_t(0); }); });
    bool taken = false;
    try {
      support::UncountedAllocations counted_here;  // the manager's own cuMemAlloc: counted once, here
      taken = g_external_allocate(a->device_, bytes, &a->address_, &a->external_owner_);
    } catch (...) {
      support::refund_memory_quota(charge);
      throw;
    }
    if (taken) {
      a->charged_ = charge;
      return a;
    }
    support::refund_memory_quota(charge);  // declined: cuhost allocates (and charges) below
  }
  if (a->backend_ == Backend::Cuda) {
    make_device_current(a->device_);
    if (t_temporary_active && bytes <= kPoolMaxBlock) {
      std::size_t bucket = pool_bucket(bytes);
      a->pooled_capacity_ = bucket;
      a->pool_stream_ = t_temporary_stream;
      // A launch temporary counts while a launch holds it, not while it
      // waits in the pool (cuhost's own cache).
      a->address_ = with_retry(a->device_, [&]() -> std::uintptr_t {
        return charged_attempt(charge, "cuMemAlloc", [&]() -> std::uintptr_t {
          TemporaryPool& pool = temporary_pool();
          {
            std::lock_guard<std::mutex> lock(pool.mutex);
            auto& blocks = pool.free_blocks[{a->device_, a->pool_stream_, bucket}];
            if (!blocks.empty()) {
              std::uintptr_t address = blocks.back();
              blocks.pop_back();
              return address;
            }
          }
          return cuda::device_alloc(bucket);
        });
      });
      a->charged_ = charge;
      return a;
    }
    a->address_ = with_retry(
        a->device_, [&] { return charged_attempt(charge, "cuMemAlloc", [&] { return cuda::device_alloc(bytes); }); });
  } else {
    a->address_ = with_retry(
        a->device_, [&] { return charged_attempt(charge, "cuMemAlloc", [&] { return cpu_device_alloc(bytes); }); });
  }
  a->charged_ = charge;
  return a;
}

std::shared_ptr<DeviceAllocation> DeviceAllocation::allocate_managed(std::size_t bytes, bool attach_global) {
  std::shared_ptr<DeviceAllocation> a(new DeviceAllocation());
  a->size_ = bytes;
  a->backend_ = session().backend;
  a->device_ = current_device();
  a->managed_ = true;
  if (bytes == 0) return a;
  if (capture_in_progress()) refuse_allocation_in_capture("managed memory", bytes);
  if (a->backend_ == Backend::Cuda) {
    a->order_ = std::make_shared<AccessOrder>();
    make_device_current(a->device_);
    a->address_ = with_retry(a->device_, [&] {
      return charged_attempt(bytes, "cuMemAllocManaged", [&] { return cuda::managed_alloc(bytes, attach_global); });
    });
  } else {
    a->address_ = with_retry(a->device_, [&] {
      return charged_attempt(bytes, "cuMemAllocManaged", [&] { return cpu_device_alloc(bytes); });
    });
  }
  a->charged_ = bytes;
  return a;
}

DeviceAllocation::~DeviceAllocation() {
  if (external_owner_) {  // the owner's release (a member, after this body) hands the memory back
    support::refund_memory_quota(charged_);
    return;
  }
  if (!address_) return;
  if (pooled_capacity_) {
    TemporaryPool& pool = temporary_pool();
    std::lock_guard<std::mutex> lock(pool.mutex);
    auto& blocks = pool.free_blocks[{device_, pool_stream_, pooled_capacity_}];
    if (blocks.size() < kPoolMaxPerBucket) {
      blocks.push_back(address_);
      support::refund_memory_quota(charged_);
      return;
    }
  }
  if (backend_ != Backend::Cuda) cpu_forget(address_);
  // Freeing waits for the memory's own device only: writes that other
  // devices' streams (peer access, peer copies) may still be making are
  // waited for first.
  bool other_writers = false;
  try {
    other_writers = order_ && order_->written_from_other_device(device_);
  } catch (...) {
  }
  if (other_writers) {
    queue_free(device_, size_, [order = order_, release = releaser(backend_, device_, address_, charged_)] {
      order->finish_writes();
      release();
    });
    return;
  }
  queue_free(device_, size_, releaser(backend_, device_, address_, charged_));
}

bool find_allocation(std::uintptr_t pointer, std::uintptr_t* base, std::size_t* size) {
  if (session().backend == Backend::Cuda) {
    make_context_current();
    cuda::address_range(pointer, base, size);
    return true;
  }
  CpuAllocations& a = cpu_allocations();
  std::lock_guard<std::mutex> lock(a.mutex);
  auto it = a.live.upper_bound(pointer);
  if (it == a.live.begin()) return false;
  --it;
  if (pointer >= it->first + std::max<std::size_t>(it->second, 1)) return false;
  *base = it->first;
  *size = it->second;
  return true;
}

std::shared_ptr<PinnedAllocation> PinnedAllocation::allocate(std::size_t bytes) {
  std::shared_ptr<PinnedAllocation> a(new PinnedAllocation());
  a->size_ = bytes;
  a->backend_ = session().backend;
  std::size_t n = bytes ? bytes : 1;
  if (capture_in_progress()) refuse_allocation_in_capture("page-locked host memory", bytes);
  if (a->backend_ == Backend::Cuda) {
    make_context_current();
    a->data_ = cuda::pinned_alloc(n);
  } else {
    a->data_ = aligned_host(n, "pinned host memory");
  }
  PinnedRanges& ranges = pinned_ranges();
  std::lock_guard<std::mutex> lock(ranges.mutex);
  ranges.blocks[reinterpret_cast<std::uintptr_t>(a->data_)] = n;
  return a;
}

PinnedAllocation::~PinnedAllocation() {
  if (!data_) return;
  {
    PinnedRanges& ranges = pinned_ranges();
    std::lock_guard<std::mutex> lock(ranges.mutex);
    ranges.blocks.erase(reinterpret_cast<std::uintptr_t>(data_));
  }
  if (backend_ == Backend::Cuda)
    cuda::pinned_free(data_);
  else
    std::free(data_);
}

bool is_page_locked(const void* data, std::size_t bytes) {
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  {
    PinnedRanges& ranges = pinned_ranges();
    std::lock_guard<std::mutex> lock(ranges.mutex);
    auto it = ranges.blocks.upper_bound(start);
    if (it != ranges.blocks.begin()) {
      --it;
      if (start >= it->first && start + bytes <= it->first + it->second) return true;
    }
  }
  // Host memory page-locked by registration (cuda.pinned(), mapped()): the
  // driver knows it; on the CPU backend the CPU device recorded it.
  if (session().backend != Backend::Cuda) return cpu::host_range_registered(start, bytes);
  make_context_current();
  return cuda::is_host_memory(data);
}

void copy_to_device(std::uintptr_t dst, const void* src, std::size_t bytes, std::uintptr_t stream, bool synchronous) {
  if (!bytes) return;
  if (capture_in_progress() &&
      capture_copy(CopyKind::HostToDevice, dst, reinterpret_cast<std::uintptr_t>(src), bytes, stream, synchronous))
    return;
  if (device_is_host()) {
    std::memmove(reinterpret_cast<void*>(dst), src, bytes);
    return;
  }
  make_context_current();
  cuda::copy_host_to_device(dst, src, bytes, as_stream(stream), synchronous);
}

void copy_to_host(void* dst, std::uintptr_t src, std::size_t bytes, std::uintptr_t stream, bool synchronous) {
  if (!bytes) return;
  if (capture_in_progress() &&
      capture_copy(CopyKind::DeviceToHost, reinterpret_cast<std::uintptr_t>(dst), src, bytes, stream, synchronous))
    return;
  if (device_is_host()) {
    std::memmove(dst, reinterpret_cast<const void*>(src), bytes);
    return;
  }
  make_context_current();
  cuda::copy_device_to_host(dst, src, bytes, as_stream(stream), synchronous);
}

void copy_on_device(std::uintptr_t dst, std::uintptr_t src, std::size_t bytes, std::uintptr_t stream,
                    bool synchronous) {
  if (!bytes) return;
  if (capture_in_progress() && capture_copy(CopyKind::DeviceToDevice, dst, src, bytes, stream, synchronous)) return;
  if (device_is_host()) {
    std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
    return;
  }
  make_context_current();
  cuda::copy_device_to_device(dst, src, bytes, as_stream(stream), synchronous);
}

namespace {
const char* const kWaitReason =
    "a graph's work runs only when the graph is launched, so there is nothing to wait for yet (and the CUDA driver "
    "would end the capture); wait after launching the graph";
}  // namespace

void copy_between_devices(std::uintptr_t dst, int dst_device, std::uintptr_t src, int src_device, std::size_t bytes,
                          std::uintptr_t stream, bool synchronous) {
  if (!bytes) return;
  if (device_is_host() || dst_device == src_device) {
    copy_on_device(dst, src, bytes, stream, synchronous);
    return;
  }
  // A peer copy is captured like a copy on the device (the driver records
  // cuMemcpyPeerAsync as a copy node).
  if (capture_in_progress() && capture_copy(CopyKind::DeviceToDevice, dst, src, bytes, stream, synchronous)) return;
  make_context_current();
  cuda::copy_peer(dst, dst_device, src, src_device, bytes, as_stream(stream), synchronous);
}

void set_on_device(std::uintptr_t dst, unsigned char value, std::size_t bytes, std::uintptr_t stream,
                   bool synchronous) {
  if (!bytes) return;
  if (capture_in_progress() && capture_memset(dst, value, bytes, stream, synchronous)) return;
  if (device_is_host()) {
    std::memset(reinterpret_cast<void*>(dst), value, bytes);
    return;
  }
  make_context_current();
  cuda::memset_device(dst, value, bytes, as_stream(stream), synchronous);
}

void synchronize_stream(std::uintptr_t stream) {
  const bool capturing = capture_in_progress();
  if (capturing) refuse_on_captured_stream(stream, "wait for the stream", kWaitReason);
  if (device_is_host()) return;
  make_context_current();
  // Another stream than the captured one: the driver's thread-local capture
  // mode counts waiting for any stream as unsafe; it is not for this capture.
  std::optional<cuda::RelaxedCaptureMode> relaxed;
  if (capturing) relaxed.emplace();
  cuda::synchronize_stream(as_stream(stream));
}

void synchronize_device() {
  if (capture_in_progress()) refuse_during_any_capture("wait for the whole device", kWaitReason);
  if (device_is_host()) return;
  make_context_current();
  cuda::synchronize_context();
}

}  // namespace cuhost::runtime
