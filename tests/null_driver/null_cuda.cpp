// A stand-in libcuda.so.1 that does no GPU work, for measuring and profiling
// cuhost's own host-side launch cost (argument typing, plan lookup, packing,
// GIL handling) on a machine without a GPU: every entry point cuhost resolves
// succeeds at once. Device memory is host memory, copies are memcpy, launches
// return immediately, a loaded library's globals are zeroed host blocks (only
// names found in the loaded image exist). Never put it on a real run's
// library path: results computed "on" it are not computed at all.
#include <cuda.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct NullLibrary {
  std::string image;
  std::map<std::string, std::vector<char>> globals;
};

std::mutex g_mutex;
int g_context_storage = 0;

CUresult ok() { return CUDA_SUCCESS; }

CUresult null_init(unsigned) { return ok(); }
CUresult null_driver_version(int* v) {
  *v = CUDA_VERSION;
  return ok();
}
CUresult null_error_name(CUresult, const char** s) {
  *s = "CUDA_ERROR_NULL_DRIVER";
  return ok();
}
CUresult null_error_string(CUresult, const char** s) {
  *s = "null driver";
  return ok();
}
CUresult null_device_count(int* n) {
  *n = 1;
  return ok();
}
CUresult null_device_get(CUdevice* d, int ordinal) {
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *d = 0;
  return ok();
}
CUresult null_device_name(char* name, int len, CUdevice) {
  std::strncpy(name, "cuhost null driver", static_cast<size_t>(len));
  if (len > 0) name[len - 1] = '\0';
  return ok();
}
CUresult null_device_attribute(int* v, CUdevice_attribute a, CUdevice) {
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
    default: *v = 1; break;
  }
  return ok();
}
CUresult null_total_mem(size_t* bytes, CUdevice) {
  *bytes = size_t{80} << 30;
  return ok();
}
CUresult null_uuid(CUuuid* u, CUdevice) {
  std::memset(u, 0, sizeof *u);
  return ok();
}
CUresult null_ctx_retain(CUcontext* c, CUdevice) {
  *c = reinterpret_cast<CUcontext>(&g_context_storage);
  return ok();
}
CUresult null_ctx_release(CUdevice) { return ok(); }
// Contexts made current form a per-thread stack, as with the driver.
thread_local std::vector<CUcontext> t_context_stack;
CUresult null_ctx_set(CUcontext c) {
  if (!c) {
    if (!t_context_stack.empty()) t_context_stack.pop_back();
  } else if (t_context_stack.empty()) {
    t_context_stack.push_back(c);
  } else {
    t_context_stack.back() = c;
  }
  return ok();
}
CUresult null_ctx_get(CUcontext* c) {
  *c = t_context_stack.empty() ? nullptr : t_context_stack.back();
  return ok();
}
CUresult null_ctx_push(CUcontext c) {
  t_context_stack.push_back(c);
  return ok();
}
CUresult null_ctx_pop(CUcontext* c) {
  if (t_context_stack.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  *c = t_context_stack.back();
  t_context_stack.pop_back();
  return ok();
}
CUresult null_ctx_device(CUdevice* d) {
  if (t_context_stack.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  *d = 0;
  return ok();
}
CUresult null_ctx_create(CUcontext* c, CUctxCreateParams*, unsigned, CUdevice) {
  *c = reinterpret_cast<CUcontext>(new char(0));
  t_context_stack.push_back(*c);
  return ok();
}
CUresult null_ctx_destroy(CUcontext c) {
  for (auto it = t_context_stack.begin(); it != t_context_stack.end();)
    it = *it == c ? t_context_stack.erase(it) : it + 1;
  delete reinterpret_cast<char*>(c);
  return ok();
}
CUresult null_sync() { return ok(); }
std::map<CUdeviceptr, size_t> g_allocations;  // for cuMemGetAddressRange
CUresult null_alloc(CUdeviceptr* p, size_t bytes) {
  void* m = std::calloc(bytes ? bytes : 1, 1);
  if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = reinterpret_cast<CUdeviceptr>(m);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_allocations[*p] = bytes;
  return ok();
}
CUresult null_alloc_managed(CUdeviceptr* p, size_t bytes, unsigned) { return null_alloc(p, bytes); }
CUresult null_free(CUdeviceptr p) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_allocations.erase(p);
  }
  std::free(reinterpret_cast<void*>(p));
  return ok();
}
CUresult null_address_range(CUdeviceptr* base, size_t* size, CUdeviceptr p) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_allocations.upper_bound(p);
  if (it == g_allocations.begin()) return CUDA_ERROR_NOT_FOUND;
  --it;
  if (p >= it->first + (it->second ? it->second : 1)) return CUDA_ERROR_NOT_FOUND;
  *base = it->first;
  *size = it->second;
  return ok();
}
// An IPC handle names the allocation by its address (one process only).
CUresult null_ipc_get(CUipcMemHandle* h, CUdeviceptr p) {
  std::memset(h, 0, sizeof *h);
  std::memcpy(h->reserved, &p, sizeof p);
  return ok();
}
CUresult null_ipc_open(CUdeviceptr* p, CUipcMemHandle h, unsigned) {
  std::memcpy(p, h.reserved, sizeof *p);
  return ok();
}
CUresult null_ipc_close(CUdeviceptr) { return ok(); }
CUresult null_memset_sync(CUdeviceptr d, unsigned char v, size_t n) {
  std::memset(reinterpret_cast<void*>(d), v, n);
  return ok();
}
CUresult null_profiler() { return ok(); }
CUresult null_func_cache(CUfunction, CUfunc_cache) { return ok(); }
CUresult null_active_blocks(int* n, CUfunction, int, size_t) {
  *n = 2;
  return ok();
}
CUresult null_alloc_host(void** p, size_t bytes) {
  *p = std::calloc(bytes ? bytes : 1, 1);
  return *p ? ok() : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult null_free_host(void* p) {
  std::free(p);
  return ok();
}
CUresult null_register(void*, size_t, unsigned) { return ok(); }
CUresult null_unregister(void*) { return ok(); }
CUresult null_htod(CUdeviceptr d, const void* h, size_t n) {
  std::memcpy(reinterpret_cast<void*>(d), h, n);
  return ok();
}
CUresult null_dtoh(void* h, CUdeviceptr d, size_t n) {
  std::memcpy(h, reinterpret_cast<const void*>(d), n);
  return ok();
}
CUresult null_dtod(CUdeviceptr a, CUdeviceptr b, size_t n) {
  std::memmove(reinterpret_cast<void*>(a), reinterpret_cast<const void*>(b), n);
  return ok();
}
CUresult null_htod_async(CUdeviceptr d, const void* h, size_t n, CUstream) { return null_htod(d, h, n); }
CUresult null_dtoh_async(void* h, CUdeviceptr d, size_t n, CUstream) { return null_dtoh(h, d, n); }
CUresult null_dtod_async(CUdeviceptr a, CUdeviceptr b, size_t n, CUstream) { return null_dtod(a, b, n); }
const char* plane(CUmemorytype type, const void* host, CUdeviceptr device) {
  return type == CU_MEMORYTYPE_HOST ? static_cast<const char*>(host) : reinterpret_cast<const char*>(device);
}
CUresult null_copy_2d(const CUDA_MEMCPY2D* c, CUstream) {
  const char* src = plane(c->srcMemoryType, c->srcHost, c->srcDevice) + c->srcY * c->srcPitch + c->srcXInBytes;
  char* dst =
      const_cast<char*>(plane(c->dstMemoryType, c->dstHost, c->dstDevice)) + c->dstY * c->dstPitch + c->dstXInBytes;
  for (size_t row = 0; row < c->Height; ++row)
    std::memcpy(dst + row * c->dstPitch, src + row * c->srcPitch, c->WidthInBytes);
  return ok();
}
CUresult null_memset(CUdeviceptr d, unsigned char v, size_t n, CUstream) {
  std::memset(reinterpret_cast<void*>(d), v, n);
  return ok();
}
CUresult null_mem_info(size_t* free_bytes, size_t* total) {
  *free_bytes = size_t{70} << 30;
  *total = size_t{80} << 30;
  return ok();
}
CUresult null_pointer_attribute(void*, CUpointer_attribute, CUdeviceptr) { return CUDA_ERROR_INVALID_VALUE; }
CUresult null_handle(void** h) {
  *h = std::malloc(1);
  return ok();
}
CUresult null_stream_create(CUstream* s, unsigned) { return null_handle(reinterpret_cast<void**>(s)); }
CUresult null_stream_destroy(CUstream s) {
  std::free(s);
  return ok();
}
CUresult null_stream_sync(CUstream) { return ok(); }
CUresult null_stream_wait(CUstream, CUevent, unsigned) { return ok(); }
CUresult null_event_create(CUevent* e, unsigned) { return null_handle(reinterpret_cast<void**>(e)); }
CUresult null_event_destroy(CUevent e) {
  std::free(e);
  return ok();
}
CUresult null_event_record(CUevent, CUstream) { return ok(); }
CUresult null_event_sync(CUevent) { return ok(); }
CUresult null_elapsed(float* ms, CUevent, CUevent) {
  *ms = 0.001f;
  return ok();
}
// The length of a loaded image: an ELF cubin ends with its section header
// table; PTX is text.
size_t image_size(const void* image) {
  const auto* bytes = static_cast<const unsigned char*>(image);
  if (std::memcmp(bytes,
                  "\x7f"
                  "ELF",
                  4) == 0 &&
      bytes[4] == 2) {
    std::uint64_t shoff = 0;
    std::uint16_t shentsize = 0, shnum = 0;
    std::memcpy(&shoff, bytes + 0x28, sizeof shoff);
    std::memcpy(&shentsize, bytes + 0x3a, sizeof shentsize);
    std::memcpy(&shnum, bytes + 0x3c, sizeof shnum);
    return static_cast<size_t>(shoff + std::uint64_t{shentsize} * shnum);
  }
  return std::strlen(static_cast<const char*>(image));
}
CUresult null_library_load(CUlibrary* lib, const void* image, CUjit_option*, void**, unsigned, CUlibraryOption*, void**,
                           unsigned) {
  auto* l = new NullLibrary();
  l->image.assign(static_cast<const char*>(image), image_size(image));
  *lib = reinterpret_cast<CUlibrary>(l);
  return ok();
}
CUresult null_library_unload(CUlibrary lib) {
  delete reinterpret_cast<NullLibrary*>(lib);
  return ok();
}
CUresult null_library_kernel(CUkernel* k, CUlibrary lib, const char*) {
  *k = reinterpret_cast<CUkernel>(lib);
  return ok();
}
CUresult null_library_global(CUdeviceptr* p, size_t* bytes, CUlibrary lib, const char* name) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto* l = reinterpret_cast<NullLibrary*>(lib);
  auto it = l->globals.find(name);
  if (it == l->globals.end()) {
    if (!memmem(l->image.data(), l->image.size(), name, std::strlen(name))) return CUDA_ERROR_NOT_FOUND;
    it = l->globals.emplace(name, std::vector<char>(4096, 0)).first;
  }
  *p = reinterpret_cast<CUdeviceptr>(it->second.data());
  *bytes = it->second.size();
  return ok();
}
CUresult null_library_module(CUmodule* m, CUlibrary lib) {
  *m = reinterpret_cast<CUmodule>(lib);
  return ok();
}
CUresult null_kernel_function(CUfunction* f, CUkernel k) {
  *f = reinterpret_cast<CUfunction>(k);
  return ok();
}
CUresult null_module_load(CUmodule* m, const void*) { return null_handle(reinterpret_cast<void**>(m)); }
CUresult null_module_load_ex(CUmodule* m, const void*, unsigned, CUjit_option*, void**) {
  return null_handle(reinterpret_cast<void**>(m));
}
CUresult null_module_unload(CUmodule m) {
  std::free(m);
  return ok();
}
CUresult null_module_function(CUfunction* f, CUmodule m, const char*) {
  *f = reinterpret_cast<CUfunction>(m);
  return ok();
}
CUresult null_module_global(CUdeviceptr*, size_t*, CUmodule, const char*) { return CUDA_ERROR_NOT_FOUND; }
CUresult null_func_attribute(int* v, CUfunction_attribute a, CUfunction) {
  *v = a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0;
  return ok();
}
CUresult null_func_set_attribute(CUfunction, CUfunction_attribute, int) { return ok(); }
CUresult null_launch(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**,
                     void**) {
  return ok();
}
CUresult null_launch_cooperative(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 CUstream, void**) {
  return ok();
}
CUresult null_occupancy(int* grid, int* block, CUfunction, CUoccupancyB2DSize, size_t, int) {
  *grid = 132;
  *block = 256;
  return ok();
}

struct Entry {
  const char* name;
  void* fn;
};

#define NULL_ENTRY(name, fn) \
  { #name, reinterpret_cast < void*>(&fn) }
const Entry g_entries[] = {
    NULL_ENTRY(cuInit, null_init),
    NULL_ENTRY(cuDriverGetVersion, null_driver_version),
    NULL_ENTRY(cuGetErrorName, null_error_name),
    NULL_ENTRY(cuGetErrorString, null_error_string),
    NULL_ENTRY(cuDeviceGetCount, null_device_count),
    NULL_ENTRY(cuDeviceGet, null_device_get),
    NULL_ENTRY(cuDeviceGetName, null_device_name),
    NULL_ENTRY(cuDeviceGetAttribute, null_device_attribute),
    NULL_ENTRY(cuDeviceTotalMem, null_total_mem),
    NULL_ENTRY(cuDeviceGetUuid, null_uuid),
    NULL_ENTRY(cuDevicePrimaryCtxRetain, null_ctx_retain),
    NULL_ENTRY(cuDevicePrimaryCtxRelease, null_ctx_release),
    NULL_ENTRY(cuCtxSetCurrent, null_ctx_set),
    NULL_ENTRY(cuCtxGetCurrent, null_ctx_get),
    NULL_ENTRY(cuCtxSynchronize, null_sync),
    NULL_ENTRY(cuCtxPushCurrent, null_ctx_push),
    NULL_ENTRY(cuCtxPopCurrent, null_ctx_pop),
    NULL_ENTRY(cuCtxGetDevice, null_ctx_device),
    NULL_ENTRY(cuCtxCreate, null_ctx_create),
    NULL_ENTRY(cuCtxDestroy, null_ctx_destroy),
    NULL_ENTRY(cuMemAllocManaged, null_alloc_managed),
    NULL_ENTRY(cuMemGetAddressRange, null_address_range),
    NULL_ENTRY(cuMemsetD8, null_memset_sync),
    NULL_ENTRY(cuIpcGetMemHandle, null_ipc_get),
    NULL_ENTRY(cuIpcOpenMemHandle, null_ipc_open),
    NULL_ENTRY(cuIpcCloseMemHandle, null_ipc_close),
    NULL_ENTRY(cuProfilerStart, null_profiler),
    NULL_ENTRY(cuProfilerStop, null_profiler),
    NULL_ENTRY(cuFuncSetCacheConfig, null_func_cache),
    NULL_ENTRY(cuOccupancyMaxActiveBlocksPerMultiprocessor, null_active_blocks),
    NULL_ENTRY(cuMemAlloc, null_alloc),
    NULL_ENTRY(cuMemFree, null_free),
    NULL_ENTRY(cuMemAllocHost, null_alloc_host),
    NULL_ENTRY(cuMemFreeHost, null_free_host),
    NULL_ENTRY(cuMemHostRegister, null_register),
    NULL_ENTRY(cuMemHostUnregister, null_unregister),
    NULL_ENTRY(cuMemcpyHtoD, null_htod),
    NULL_ENTRY(cuMemcpyDtoH, null_dtoh),
    NULL_ENTRY(cuMemcpyDtoD, null_dtod),
    NULL_ENTRY(cuMemcpyHtoDAsync, null_htod_async),
    NULL_ENTRY(cuMemcpyDtoHAsync, null_dtoh_async),
    NULL_ENTRY(cuMemcpyDtoDAsync, null_dtod_async),
    NULL_ENTRY(cuMemcpy2DAsync, null_copy_2d),
    NULL_ENTRY(cuMemsetD8Async, null_memset),
    NULL_ENTRY(cuMemGetInfo, null_mem_info),
    NULL_ENTRY(cuPointerGetAttribute, null_pointer_attribute),
    NULL_ENTRY(cuStreamCreate, null_stream_create),
    NULL_ENTRY(cuStreamDestroy, null_stream_destroy),
    NULL_ENTRY(cuStreamSynchronize, null_stream_sync),
    NULL_ENTRY(cuStreamQuery, null_stream_sync),
    NULL_ENTRY(cuStreamWaitEvent, null_stream_wait),
    NULL_ENTRY(cuEventCreate, null_event_create),
    NULL_ENTRY(cuEventDestroy, null_event_destroy),
    NULL_ENTRY(cuEventRecord, null_event_record),
    NULL_ENTRY(cuEventSynchronize, null_event_sync),
    NULL_ENTRY(cuEventQuery, null_event_sync),
    NULL_ENTRY(cuEventElapsedTime, null_elapsed),
    NULL_ENTRY(cuModuleLoadData, null_module_load),
    NULL_ENTRY(cuModuleLoadDataEx, null_module_load_ex),
    NULL_ENTRY(cuModuleUnload, null_module_unload),
    NULL_ENTRY(cuModuleGetFunction, null_module_function),
    NULL_ENTRY(cuModuleGetGlobal, null_module_global),
    NULL_ENTRY(cuLibraryLoadData, null_library_load),
    NULL_ENTRY(cuLibraryUnload, null_library_unload),
    NULL_ENTRY(cuLibraryGetKernel, null_library_kernel),
    NULL_ENTRY(cuLibraryGetGlobal, null_library_global),
    NULL_ENTRY(cuLibraryGetModule, null_library_module),
    NULL_ENTRY(cuKernelGetFunction, null_kernel_function),
    NULL_ENTRY(cuFuncGetAttribute, null_func_attribute),
    NULL_ENTRY(cuFuncSetAttribute, null_func_set_attribute),
    NULL_ENTRY(cuLaunchKernel, null_launch),
    NULL_ENTRY(cuLaunchCooperativeKernel, null_launch_cooperative),
    NULL_ENTRY(cuOccupancyMaxPotentialBlockSize, null_occupancy),
};
#undef NULL_ENTRY

}  // namespace

extern "C" __attribute__((visibility("default"))) CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int,
                                                                               cuuint64_t,
                                                                               CUdriverProcAddressQueryResult* status) {
  for (const Entry& e : g_entries) {
    if (std::strcmp(e.name, symbol) == 0) {
      *pfn = e.fn;
      if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  }
  *pfn = nullptr;
  if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}
