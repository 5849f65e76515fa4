// Backend-neutral device memory: on the CUDA backend, driver allocations in
// the primary context of the calling thread's device (runtime/devices.h),
// which each allocation remembers; on the CPU backend, aligned host
// memory (device pointers are host pointers there). The Python layer
// (python/device_array*) builds DeviceNDArray on top of this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <cuhost/runtime.h>

namespace cuhost::runtime {

// Whether an allocation counts against the device-memory quota
// (memory_quota.h): scripts' memory does; the host's own buffers and
// cuhost's bounded launch-staging buffers do not.
enum class QuotaUse { Counted, Exempt };

class AccessOrder;

// One allocation, released when the last owner lets go (views share it):
// cuhost's own memory goes to the device's pending-free queue
// (pending_frees.h); memory from an external allocator is handed back to it.
class DeviceAllocation {
 public:
  // Device memory of the session's device. Throws UserError (CudaAPIError, or
  // MemoryError-like RuntimeError on the CPU; GraphCaptureError on a thread
  // that is capturing a graph). A failed allocation releases the pending
  // frees and tries once more, as numba-cuda does.
  // Past the quota: CudaAPIError naming it (after the same release-and-retry).
  static std::shared_ptr<DeviceAllocation> allocate(std::size_t bytes, QuotaUse quota = QuotaUse::Counted);
  // Managed (unified) memory: cuMemAllocManaged, attached globally or to the
  // host; host memory on the CPU backend, where the host is the device.
  static std::shared_ptr<DeviceAllocation> allocate_managed(std::size_t bytes, bool attach_global);
  ~DeviceAllocation();
  DeviceAllocation(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(const DeviceAllocation&) = delete;

  std::uintptr_t address() const { return address_; }
  std::size_t size() const { return size_; }
  Backend backend() const { return backend_; }
  int device() const { return device_; }
  bool managed() const { return managed_; }
  // The external allocator's handle on this memory (null for cuhost's own).
  const std::shared_ptr<void>& external_owner() const { return external_owner_; }
  // The cross-stream ordering of work on this memory (runtime/access_order.h):
  // set for CUDA memory whose users may run on several streams, null for the
  // CPU backend and launch temporaries (used on one stream only).
  AccessOrder* order() const { return order_.get(); }

 private:
  DeviceAllocation() = default;
  std::uintptr_t address_ = 0;
  std::size_t size_ = 0;
  Backend backend_ = Backend::Cpu;
  int device_ = 0;
  bool managed_ = false;
  std::size_t charged_ = 0;          // bytes counted against the quota, refunded when really freed
  std::size_t pooled_capacity_ = 0;  // > 0: a launch temporary that goes back to its stream's pool
  std::uintptr_t pool_stream_ = 0;
  std::shared_ptr<void> external_owner_;
  std::shared_ptr<AccessOrder> order_;  // shared: a release may need it after the allocation is gone
};

// An allocator that replaces cuhost's own for a device (numba-cuda's external
// memory-manager plugins). It sets `address` to `bytes` new bytes and `owner`
// to what hands them back when released (from any thread), and returns true;
// false declines (cuhost allocates itself: the plugin's own allocations made
// while it runs). Throws UserError on failure.
using ExternalAllocateFn = bool (*)(int device, std::size_t bytes, std::uintptr_t* address,
                                    std::shared_ptr<void>* owner);
void set_external_allocator(ExternalAllocateFn allocate);
// Routes device allocations of `device` (ordinal < 64) to the external allocator, or back.
void use_external_allocator(int device, bool on);
bool uses_external_allocator(int device);

// While one is alive on this thread, small CUDA allocations are launch
// temporaries (the device copies of host arrays passed to one launch): they
// come from, and return to, a small pool kept per stream instead of
// cuMemAlloc/cuMemFree on every launch. Reuse is safe because every use of a
// pooled block is ordered on that one stream (copy in, kernel, copy back).
class LaunchTemporaryScope {
 public:
  explicit LaunchTemporaryScope(std::uintptr_t stream);
  ~LaunchTemporaryScope();
  LaunchTemporaryScope(const LaunchTemporaryScope&) = delete;
  LaunchTemporaryScope& operator=(const LaunchTemporaryScope&) = delete;

 private:
  bool previous_active_;
  std::uintptr_t previous_stream_;
};

// Page-locked host memory (cuMemAllocHost) on CUDA; plain aligned host memory
// on the CPU.
class PinnedAllocation {
 public:
  static std::shared_ptr<PinnedAllocation> allocate(std::size_t bytes);
  ~PinnedAllocation();
  PinnedAllocation(const PinnedAllocation&) = delete;
  PinnedAllocation& operator=(const PinnedAllocation&) = delete;
  void* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  PinnedAllocation() = default;
  void* data_ = nullptr;
  std::size_t size_ = 0;
  Backend backend_ = Backend::Cpu;
};

// Byte copies. `stream` is a CUstream as an integer (ignored on the CPU,
// where copies are immediate). With `synchronous`, the copy has completed
// on return. A copy queued on a stream being captured into a graph is
// recorded instead (graph_capture.h), or refused when a graph cannot hold it.
void copy_to_device(std::uintptr_t dst, const void* src, std::size_t bytes, std::uintptr_t stream, bool synchronous);
void copy_to_host(void* dst, std::uintptr_t src, std::size_t bytes, std::uintptr_t stream, bool synchronous);
void copy_on_device(std::uintptr_t dst, std::uintptr_t src, std::size_t bytes, std::uintptr_t stream, bool synchronous);
// A copy from the memory of `src_device` to that of `dst_device`
// (cuMemcpyPeerAsync on the CUDA backend; a memmove on the CPU).
void copy_between_devices(std::uintptr_t dst, int dst_device, std::uintptr_t src, int src_device, std::size_t bytes,
                          std::uintptr_t stream, bool synchronous);

// Sets `bytes` bytes at `dst` to `value`.
void set_on_device(std::uintptr_t dst, unsigned char value, std::size_t bytes, std::uintptr_t stream, bool synchronous);

// The live allocation `pointer` lies in: its base and size (cuhost's own
// allocations on the CPU backend, any allocation on CUDA). False when none.
bool find_allocation(std::uintptr_t pointer, std::uintptr_t* base, std::size_t* size);

// Waits for all work queued on `stream` (no-op on the CPU). Both refuse,
// with GraphCaptureError, to wait for work that is being captured into a
// graph (runtime/graph_capture.h).
void synchronize_stream(std::uintptr_t stream);
// Waits for all work on the session's device (cuCtxSynchronize; no-op on the CPU).
void synchronize_device();

// Whether [data, data + bytes) lies in page-locked host memory: memory from
// PinnedAllocation (both backends) or, on the CUDA backend, memory the
// driver knows as host memory (cuMemHostRegister-ed, or pinned elsewhere).
bool is_page_locked(const void* data, std::size_t bytes);

// Makes the primary context of the calling thread's device current (CUDA;
// no-op on the CPU).
void make_context_current();

// True when device pointers are host pointers (the CPU backend).
bool device_is_host();

}  // namespace cuhost::runtime
