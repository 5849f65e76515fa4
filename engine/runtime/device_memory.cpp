// Device memory for both backends (see device_memory.h). CPU allocations are
// 256-byte aligned like cuMemAlloc's, so kernels see the same alignment.
#include "runtime/device_memory.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "cuda/context.h"
#include "cuda/memory.h"
#include "cuda/stream.h"
#include "runtime/graph_capture.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

namespace {
constexpr std::size_t kAlignment = 256;

void* aligned_host(std::size_t bytes) {
  std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (!p) throw UserError(ErrorKind::RuntimeError, concat("out of host memory allocating ", bytes, " bytes"));
  return p;
}

CUstream as_stream(std::uintptr_t s) { return reinterpret_cast<CUstream>(s); }

// --- launch temporaries ------------------------------------------------------
constexpr std::size_t kPoolMaxBlock = std::size_t(1) << 20;  // larger temporaries are not pooled
constexpr std::size_t kPoolMaxPerBucket = 16;

thread_local bool t_temporary_active = false;
thread_local std::uintptr_t t_temporary_stream = 0;

struct TemporaryPool {
  std::mutex mutex;
  std::map<std::pair<std::uintptr_t, std::size_t>, std::vector<std::uintptr_t>> free_blocks;  // (stream, size)
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

void make_context_current() {
  if (session().backend == Backend::Cuda) cuda::make_primary_context_current(session().device);
}

std::shared_ptr<DeviceAllocation> DeviceAllocation::allocate(std::size_t bytes) {
  std::shared_ptr<DeviceAllocation> a(new DeviceAllocation());
  a->size_ = bytes;
  a->backend_ = session().backend;
  a->device_ = session().device;
  if (bytes == 0) return a;  // address 0: nothing to free
  if (capture_in_progress()) refuse_allocation_in_capture("device memory", bytes);
  if (a->backend_ == Backend::Cuda) {
    cuda::make_primary_context_current(a->device_);
    if (t_temporary_active && bytes <= kPoolMaxBlock) {
      std::size_t bucket = pool_bucket(bytes);
      a->pooled_capacity_ = bucket;
      a->pool_stream_ = t_temporary_stream;
      TemporaryPool& pool = temporary_pool();
      {
        std::lock_guard<std::mutex> lock(pool.mutex);
        auto& blocks = pool.free_blocks[{a->pool_stream_, bucket}];
        if (!blocks.empty()) {
          a->address_ = blocks.back();
          blocks.pop_back();
          return a;
        }
      }
      a->address_ = cuda::device_alloc(bucket);
      return a;
    }
    a->address_ = cuda::device_alloc(bytes);
  } else {
    a->address_ = reinterpret_cast<std::uintptr_t>(aligned_host(bytes));
  }
  return a;
}

DeviceAllocation::~DeviceAllocation() {
  if (!address_) return;
  if (pooled_capacity_) {
    TemporaryPool& pool = temporary_pool();
    std::lock_guard<std::mutex> lock(pool.mutex);
    auto& blocks = pool.free_blocks[{pool_stream_, pooled_capacity_}];
    if (blocks.size() < kPoolMaxPerBucket) {
      blocks.push_back(address_);
      return;
    }
  }
  if (backend_ == Backend::Cuda) {
    try {
      cuda::make_primary_context_current(device_);
    } catch (...) {
      return;  // no context: the memory went with it
    }
    cuda::device_free(address_);
  } else {
    std::free(reinterpret_cast<void*>(address_));
  }
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
    a->data_ = aligned_host(n);
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
  if (session().backend != Backend::Cuda) return false;
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

void synchronize_stream(std::uintptr_t stream) {
  if (capture_in_progress()) refuse_on_captured_stream(stream, "wait for the stream", kWaitReason);
  if (device_is_host()) return;
  make_context_current();
  cuda::synchronize_stream(as_stream(stream));
}

void synchronize_device() {
  if (capture_in_progress()) refuse_during_any_capture("wait for the whole device", kWaitReason);
  if (device_is_host()) return;
  make_context_current();
  cuda::synchronize_context();
}

}  // namespace cuhost::runtime
