// Device and page-locked host memory through the driver: allocation and the
// copies between them. Copies are issued asynchronously on a stream and,
// when `synchronous` is set, waited for before returning (so pageable or
// temporary host buffers may be released right after). The caller makes
// the right context current first (cuda/context.h).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

namespace cuhost::cuda {

std::uintptr_t device_alloc(std::size_t bytes);
// Managed memory (cuMemAllocManaged), attached globally or to the host.
std::uintptr_t managed_alloc(std::size_t bytes, bool attach_global);
// Never throws: a failure while freeing is reported on stderr (it runs from
// destructors).
void device_free(std::uintptr_t pointer) noexcept;

void* pinned_alloc(std::size_t bytes);
void pinned_free(void* pointer) noexcept;

void copy_host_to_device(std::uintptr_t dst, const void* src, std::size_t bytes, CUstream stream, bool synchronous);
void copy_device_to_host(void* dst, std::uintptr_t src, std::size_t bytes, CUstream stream, bool synchronous);
void copy_device_to_device(std::uintptr_t dst, std::uintptr_t src, std::size_t bytes, CUstream stream,
                           bool synchronous);
// A copy between the memory of two devices (cuMemcpyPeerAsync): `dst` lives
// on `dst_device`, `src` on `src_device`; `stream` may belong to either.
void copy_peer(std::uintptr_t dst, int dst_device, std::uintptr_t src, int src_device, std::size_t bytes,
               CUstream stream, bool synchronous);

void memset_device(std::uintptr_t dst, unsigned char value, std::size_t bytes, CUstream stream, bool synchronous);

// Whether the driver knows `pointer` as page-locked host memory (allocated
// by cuMemAllocHost or registered with cuMemHostRegister, by anyone).
bool is_host_memory(const void* pointer);

// (free, total) bytes of the current context's device.
void memory_info(std::size_t* free_bytes, std::size_t* total_bytes);

// The allocation a device pointer lies in: (base, size) (cuMemGetAddressRange).
void address_range(std::uintptr_t pointer, std::uintptr_t* base, std::size_t* size);

// CUDA IPC: the 64-byte handle of an allocation's base address, and the
// mapping of another process's allocation into this one (closed with
// ipc_close).
constexpr std::size_t kIpcHandleBytes = sizeof(CUipcMemHandle);
CUipcMemHandle ipc_get_handle(std::uintptr_t base);
std::uintptr_t ipc_open(const CUipcMemHandle& handle);
void ipc_close(std::uintptr_t pointer);

// The profiler's data collection (cuProfilerStart/Stop); no effect when no
// profiler is attached.
void profiler_start();
void profiler_stop();

}  // namespace cuhost::cuda
