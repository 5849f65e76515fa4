// The device-memory quota (RuntimeOptions::memory_quota, --memory-quota):
// one count, for the whole runtime and every device, of the bytes of device
// and managed memory scripts hold. Allocations charge it before memory is
// asked for, and refund it when the memory is really freed (after the
// pending-free queue released it), so an allocation past the quota fails
// as a real out-of-memory does and numba-cuda's release-and-retry applies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuhost::support {

// 0: no limit. Memory already counted stays counted.
void set_memory_quota(std::size_t bytes);
std::size_t memory_quota();
// Bytes counted now (counted with or without a limit).
std::size_t memory_quota_in_use();

// Counts `bytes` that `driver_call` ("cuMemAlloc", "cuMemAllocManaged") is
// about to allocate. Throws UserError(CudaAPIError) naming the quota when
// they would take the count past it; nothing is counted then.
void charge_memory_quota(std::size_t bytes, const char* driver_call);
// The same, without throwing: false when past the quota.
bool try_charge_memory_quota(std::size_t bytes);
void refund_memory_quota(std::size_t bytes);

// Raw allocations of scripts through cuda.bindings.driver (cuMemAlloc,
// cuMemAllocManaged, cuMemFree on either backend): the count remembers each
// address so that cuMemFree refunds what its allocation charged.
void remember_raw_allocation(std::uintptr_t address, std::size_t charged);
void refund_raw_allocation(std::uintptr_t address);

// While one lives on a thread, allocations made there (raw driver calls,
// device arrays) are not counted: they are an external memory manager's own
// (a Python plugin's cuMemAlloc), counted once, as the device arrays that
// asked for them.
class UncountedAllocations {
 public:
  UncountedAllocations();
  ~UncountedAllocations();
  UncountedAllocations(const UncountedAllocations&) = delete;
  UncountedAllocations& operator=(const UncountedAllocations&) = delete;
};
bool allocations_counted();

// Runs `allocate()` (a driver call: 0 on success, the address in
// `*address`) with `bytes` charged first; returns `out_of_memory` (the
// driver's CUDA_ERROR_OUT_OF_MEMORY) without calling it when past the quota.
template <typename Result, typename Address, typename Allocate>
Result raw_allocation_within_quota(std::size_t bytes, Result out_of_memory, const Address* address, Allocate allocate) {
  if (!allocations_counted()) return allocate();
  if (!try_charge_memory_quota(bytes)) return out_of_memory;
  Result r = allocate();
  if (r == Result{})
    remember_raw_allocation(static_cast<std::uintptr_t>(*address), bytes);
  else
    refund_memory_quota(bytes);
  return r;
}

// "4 MiB" for a whole number of KiB/MiB/GiB/TiB, else "N bytes".
std::string describe_bytes(std::size_t bytes);

}  // namespace cuhost::support
