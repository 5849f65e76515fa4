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

std::uintptr_t managed_alloc(std::size_t bytes, bool attach_global) {
  CUdeviceptr p = 0;
  CUHOST_CU(cuMemAllocManaged, &p, bytes, attach_global ? CU_MEM_ATTACH_GLOBAL : CU_MEM_ATTACH_HOST);
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

bool is_host_memory(const void* pointer) {
  return pointer_facts(reinterpret_cast<std::uintptr_t>(pointer)).memory_type == CU_MEMORYTYPE_HOST;
}

void copy_peer(std::uintptr_t dst, int dst_device, std::uintptr_t src, int src_device, std::size_t bytes,
               CUstream stream, bool synchronous) {
  if (!bytes) return;
  CUHOST_CU(cuMemcpyPeerAsync, static_cast<CUdeviceptr>(dst), primary_context(dst_device),
            static_cast<CUdeviceptr>(src), primary_context(src_device), bytes, stream);
  finish(stream, synchronous);
}

void memset_device(std::uintptr_t dst, unsigned char value, std::size_t bytes, CUstream stream, bool synchronous) {
  if (!bytes) return;
  CUHOST_CU(cuMemsetD8Async, static_cast<CUdeviceptr>(dst), value, bytes, stream);
  finish(stream, synchronous);
}

void memory_info(std::size_t* free_bytes, std::size_t* total_bytes) {
  CUHOST_CU(cuMemGetInfo, free_bytes, total_bytes);
}

void address_range(std::uintptr_t pointer, std::uintptr_t* base, std::size_t* size) {
  CUdeviceptr b = 0;
  std::size_t n = 0;
  CUHOST_CU(cuMemGetAddressRange, &b, &n, static_cast<CUdeviceptr>(pointer));
  *base = static_cast<std::uintptr_t>(b);
  *size = n;
}

CUipcMemHandle ipc_get_handle(std::uintptr_t base) {
  CUipcMemHandle handle{};
  CUHOST_CU(cuIpcGetMemHandle, &handle, static_cast<CUdeviceptr>(base));
  return handle;
}

std::uintptr_t ipc_open(const CUipcMemHandle& handle) {
  CUdeviceptr p = 0;
  CUHOST_CU(cuIpcOpenMemHandle, &p, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
  return static_cast<std::uintptr_t>(p);
}

void ipc_close(std::uintptr_t pointer) { CUHOST_CU(cuIpcCloseMemHandle, static_cast<CUdeviceptr>(pointer)); }

namespace {
// The profiler entry points live in libcuda but may be absent from a stand-in driver.
template <typename Fn>
void call_optional(Fn fn, const char* name) {
  if (!fn) throw UserError(ErrorKind::CudaAPIError, concat(name, " is not provided by this CUDA driver"));
  check(fn(), name);
}
}  // namespace

void profiler_start() { call_optional(driver().cuProfilerStart, "cuProfilerStart"); }
void profiler_stop() { call_optional(driver().cuProfilerStop, "cuProfilerStop"); }

}  // namespace cuhost::cuda
