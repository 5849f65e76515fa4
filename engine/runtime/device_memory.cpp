// Device memory for both backends (see device_memory.h). CPU allocations are
// 256-byte aligned like cuMemAlloc's, so kernels see the same alignment.
#include "runtime/device_memory.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "cuda/context.h"
#include "cuda/memory.h"
#include "cuda/stream.h"
#include "runtime/devices.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

namespace {
constexpr std::size_t kAlignment = 256;

// The CPU backend's device and pinned memory. Running out is reported as
// the CUDA backend reports it (CudaAPIError naming the request), so scripts
// that catch it behave the same on both backends.
void* aligned_host(std::size_t bytes, const char* what) {
  std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = rounded >= bytes ? std::aligned_alloc(kAlignment, rounded) : nullptr;
  if (!p)
    throw UserError(ErrorKind::CudaAPIError,
                    concat("out of memory allocating ", bytes, " bytes of ", what,
                           " (CPU backend: CUDA_ERROR_OUT_OF_MEMORY; this memory is host memory)"));
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

std::shared_ptr<DeviceAllocation> DeviceAllocation::allocate(std::size_t bytes) {
  std::shared_ptr<DeviceAllocation> a(new DeviceAllocation());
  a->size_ = bytes;
  a->backend_ = session().backend;
  a->device_ = current_device();
  if (bytes == 0) return a;  // address 0: nothing to free
  if (a->backend_ == Backend::Cuda) {
    make_device_current(a->device_);
    if (t_temporary_active && bytes <= kPoolMaxBlock) {
      std::size_t bucket = pool_bucket(bytes);
      a->pooled_capacity_ = bucket;
      a->pool_stream_ = t_temporary_stream;
      TemporaryPool& pool = temporary_pool();
      {
        std::lock_guard<std::mutex> lock(pool.mutex);
        auto& blocks = pool.free_blocks[{a->device_, a->pool_stream_, bucket}];
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
    a->address_ = reinterpret_cast<std::uintptr_t>(aligned_host(bytes, "device memory"));
  }
  return a;
}

DeviceAllocation::~DeviceAllocation() {
  if (!address_) return;
  if (pooled_capacity_) {
    TemporaryPool& pool = temporary_pool();
    std::lock_guard<std::mutex> lock(pool.mutex);
    auto& blocks = pool.free_blocks[{device_, pool_stream_, pooled_capacity_}];
    if (blocks.size() < kPoolMaxPerBucket) {
      blocks.push_back(address_);
      return;
    }
  }
  if (backend_ == Backend::Cuda) {
    try {
      DeviceScope scope(device_);  // freed in its own context; the thread's device is kept
      make_device_current(device_);
      cuda::device_free(address_);
    } catch (...) {
      // no context: the memory went with it
    }
  } else {
    std::free(reinterpret_cast<void*>(address_));
  }
}

std::shared_ptr<PinnedAllocation> PinnedAllocation::allocate(std::size_t bytes) {
  std::shared_ptr<PinnedAllocation> a(new PinnedAllocation());
  a->size_ = bytes;
  a->backend_ = session().backend;
  std::size_t n = bytes ? bytes : 1;
  if (a->backend_ == Backend::Cuda) {
    make_context_current();
    a->data_ = cuda::pinned_alloc(n);
  } else {
    a->data_ = aligned_host(n, "pinned host memory");
  }
  return a;
}

PinnedAllocation::~PinnedAllocation() {
  if (!data_) return;
  if (backend_ == Backend::Cuda)
    cuda::pinned_free(data_);
  else
    std::free(data_);
}

void copy_to_device(std::uintptr_t dst, const void* src, std::size_t bytes, std::uintptr_t stream, bool synchronous) {
  if (!bytes) return;
  if (device_is_host()) {
    std::memmove(reinterpret_cast<void*>(dst), src, bytes);
    return;
  }
  make_context_current();
  cuda::copy_host_to_device(dst, src, bytes, as_stream(stream), synchronous);
}

void copy_to_host(void* dst, std::uintptr_t src, std::size_t bytes, std::uintptr_t stream, bool synchronous) {
  if (!bytes) return;
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
  if (device_is_host()) {
    std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
    return;
  }
  make_context_current();
  cuda::copy_device_to_device(dst, src, bytes, as_stream(stream), synchronous);
}

void copy_between_devices(std::uintptr_t dst, int dst_device, std::uintptr_t src, int src_device, std::size_t bytes,
                          std::uintptr_t stream, bool synchronous) {
  if (!bytes) return;
  if (device_is_host() || dst_device == src_device) {
    copy_on_device(dst, src, bytes, stream, synchronous);
    return;
  }
  make_context_current();
  cuda::copy_peer(dst, dst_device, src, src_device, bytes, as_stream(stream), synchronous);
}

void synchronize_stream(std::uintptr_t stream) {
  if (device_is_host()) return;
  make_context_current();
  cuda::synchronize_stream(as_stream(stream));
}

}  // namespace cuhost::runtime
