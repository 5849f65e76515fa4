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

// (free, total) bytes of the current context's device.
void memory_info(std::size_t* free_bytes, std::size_t* total_bytes);

}  // namespace cuhost::cuda
