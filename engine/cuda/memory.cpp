// Driver-level memory operations (see memory.h).
#include "cuda/memory.h"

#include <cstdio>

#include "cuda/context.h"
#include "cuda/driver.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {

namespace {
// An allocation failure names the request: "cuMemAlloc failed:
// CUDA_ERROR_OUT_OF_MEMORY (...) allocating 70368744177664 bytes".
void check_allocation(CUresult result, const char* function, std::size_t bytes) {
  if (result == CUDA_SUCCESS) return;
  try {
    check(result, function);
  } catch (const UserError& e) {
    throw UserError(e.kind(), concat(e.message(), " allocating ", bytes, " bytes"));
  }
}
}  // namespace

std::uintptr_t device_alloc(std::size_t bytes) {
  CUdeviceptr p = 0;
  check_allocation(driver().cuMemAlloc(&p, bytes), "cuMemAlloc", bytes);
  return static_cast<std::uintptr_t>(p);
}

void device_free(std::uintptr_t pointer) noexcept {
  if (!pointer) return;
  try {
    CUresult r = driver().cuMemFree(static_cast<CUdeviceptr>(pointer));
    if (r != CUDA_SUCCESS) std::fprintf(stderr, "cuhost: cuMemFree failed: %s\n", error_name(r).c_str());
  } catch (...) {
  }
}

void* pinned_alloc(std::size_t bytes) {
  void* p = nullptr;
  check_allocation(driver().cuMemAllocHost(&p, bytes), "cuMemAllocHost", bytes);
  return p;
}

void pinned_free(void* pointer) noexcept {
  if (!pointer) return;
  try {
    CUresult r = driver().cuMemFreeHost(pointer);
    if (r != CUDA_SUCCESS) std::fprintf(stderr, "cuhost: cuMemFreeHost failed: %s\n", error_name(r).c_str());
  } catch (...) {
  }
}

namespace {
void finish(CUstream stream, bool synchronous) {
  if (synchronous) CUHOST_CU(cuStreamSynchronize, stream);
}
}  // namespace

void copy_host_to_device(std::uintptr_t dst, const void* src, std::size_t bytes, CUstream stream, bool synchronous) {
  if (!bytes) return;
  CUHOST_CU(cuMemcpyHtoDAsync, static_cast<CUdeviceptr>(dst), src, bytes, stream);
  finish(stream, synchronous);
}

void copy_device_to_host(void* dst, std::uintptr_t src, std::size_t bytes, CUstream stream, bool synchronous) {
  if (!bytes) return;
  CUHOST_CU(cuMemcpyDtoHAsync, dst, static_cast<CUdeviceptr>(src), bytes, stream);
  finish(stream, synchronous);
}

void copy_device_to_device(std::uintptr_t dst, std::uintptr_t src, std::size_t bytes, CUstream stream,
                           bool synchronous) {
  if (!bytes) return;
  CUHOST_CU(cuMemcpyDtoDAsync, static_cast<CUdeviceptr>(dst), static_cast<CUdeviceptr>(src), bytes, stream);
  finish(stream, synchronous);
}

void copy_peer(std::uintptr_t dst, int dst_device, std::uintptr_t src, int src_device, std::size_t bytes,
               CUstream stream, bool synchronous) {
  if (!bytes) return;
  CUHOST_CU(cuMemcpyPeerAsync, static_cast<CUdeviceptr>(dst), primary_context(dst_device),
            static_cast<CUdeviceptr>(src), primary_context(src_device), bytes, stream);
  finish(stream, synchronous);
}

void memory_info(std::size_t* free_bytes, std::size_t* total_bytes) {
  CUHOST_CU(cuMemGetInfo, free_bytes, total_bytes);
}

}  // namespace cuhost::cuda
