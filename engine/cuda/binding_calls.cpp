// The CUDA backend's binding calls (see binding_calls.h): thin adapters from
// integer arguments to the driver table. An entry point the loaded driver
// does not provide answers CUDA_ERROR_NOT_SUPPORTED.
#include "cuda/binding_calls.h"

#include <cstring>
#include <map>
#include <type_traits>

#include "cuda/driver.h"
#include "cuda/stream.h"
#include "support/memory_quota.h"

namespace cuhost::cuda {

namespace {

using U = std::uint64_t;

template <typename T>
T as(U v) {
  if constexpr (std::is_pointer_v<T>)
    return reinterpret_cast<T>(static_cast<std::uintptr_t>(v));
  else
    return static_cast<T>(v);
}

template <typename T>
U from(T v) {
  if constexpr (std::is_pointer_v<T>)
    return static_cast<U>(reinterpret_cast<std::uintptr_t>(v));
  else
    return static_cast<U>(v);
}

#define CUHOST_NEED(fn) \
  if (!driver().fn) return CUDA_ERROR_NOT_SUPPORTED

const BindingCall g_calls[] = {
    {"cuInit", 1, 0, 0, [](const U* in, U*) { return driver().cuInit(as<unsigned>(in[0])); }},
    {"cuDriverGetVersion", 0, 1, 0,
     [](const U*, U* out) {
       int v = 0;
       CUresult r = driver().cuDriverGetVersion(&v);
       out[0] = from(v);
       return r;
     }},
    {"cuDeviceGetCount", 0, 1, 0,
     [](const U*, U* out) {
       int n = 0;
       CUresult r = driver().cuDeviceGetCount(&n);
       out[0] = from(n);
       return r;
     }},
    {"cuDeviceGet", 1, 1, 0,
     [](const U* in, U* out) {
       CUdevice d = 0;
       CUresult r = driver().cuDeviceGet(&d, as<int>(in[0]));
       out[0] = from(d);
       return r;
     }},
    {"cuDeviceGetAttribute", 2, 1, 0,
     [](const U* in, U* out) {
       int v = 0;
       CUresult r = driver().cuDeviceGetAttribute(&v, as<CUdevice_attribute>(in[0]), as<CUdevice>(in[1]));
       out[0] = static_cast<U>(static_cast<std::int64_t>(v));
       return r;
     }},
    {"cuDeviceTotalMem", 1, 1, 0,
     [](const U* in, U* out) {
       std::size_t n = 0;
       CUresult r = driver().cuDeviceTotalMem(&n, as<CUdevice>(in[0]));
       out[0] = from(n);
       return r;
     }},
    {"cuDeviceGetUuid", 1, 0, 16,
     [](const U* in, U* out) {
       CUuuid id{};
       CUresult r = driver().cuDeviceGetUuid(&id, as<CUdevice>(in[0]));
       std::memcpy(out, id.bytes, sizeof(id.bytes));
       return r;
     }},
    {"cuDevicePrimaryCtxRetain", 1, 1, 0,
     [](const U* in, U* out) {
       CUcontext c = nullptr;
       CUresult r = driver().cuDevicePrimaryCtxRetain(&c, as<CUdevice>(in[0]));
       out[0] = from(c);
       return r;
     }},
    {"cuDevicePrimaryCtxRelease", 1, 0, 0,
     [](const U* in, U*) { return driver().cuDevicePrimaryCtxRelease(as<CUdevice>(in[0])); }},
    {"cuCtxGetCurrent", 0, 1, 0,
     [](const U*, U* out) {
       CUcontext c = nullptr;
       CUresult r = driver().cuCtxGetCurrent(&c);
       out[0] = from(c);
       return r;
     }},
    {"cuCtxSetCurrent", 1, 0, 0, [](const U* in, U*) { return driver().cuCtxSetCurrent(as<CUcontext>(in[0])); }},
    {"cuCtxPushCurrent", 1, 0, 0,
     [](const U* in, U*) {
       CUHOST_NEED(cuCtxPushCurrent);
       return driver().cuCtxPushCurrent(as<CUcontext>(in[0]));
     }},
    {"cuCtxPopCurrent", 0, 1, 0,
     [](const U*, U* out) {
       CUHOST_NEED(cuCtxPopCurrent);
       CUcontext c = nullptr;
       CUresult r = driver().cuCtxPopCurrent(&c);
       out[0] = from(c);
       return r;
     }},
    {"cuCtxGetDevice", 0, 1, 0,
     [](const U*, U* out) {
       CUHOST_NEED(cuCtxGetDevice);
       CUdevice d = 0;
       CUresult r = driver().cuCtxGetDevice(&d);
       out[0] = from(d);
       return r;
     }},
    {"cuCtxCreate", 3, 1, 0,
     [](const U* in, U* out) {
       CUHOST_NEED(cuCtxCreate);
       CUcontext c = nullptr;
       CUresult r = driver().cuCtxCreate(&c, as<CUctxCreateParams*>(in[0]), as<unsigned>(in[1]), as<CUdevice>(in[2]));
       out[0] = from(c);
       return r;
     }},
    {"cuCtxDestroy", 1, 0, 0,
     [](const U* in, U*) {
       CUHOST_NEED(cuCtxDestroy);
       return driver().cuCtxDestroy(as<CUcontext>(in[0]));
     }},
    {"cuCtxSynchronize", 0, 0, 0, [](const U*, U*) { return driver().cuCtxSynchronize(); }},
    {"cuMemGetInfo", 0, 2, 0,
     [](const U*, U* out) {
       std::size_t free_bytes = 0, total = 0;
       CUresult r = driver().cuMemGetInfo(&free_bytes, &total);
       out[0] = from(free_bytes);
       out[1] = from(total);
       return r;
     }},
    // A script's raw device allocations count against the memory quota too.
    {"cuMemAlloc", 1, 1, 0,
     [](const U* in, U* out) {
       CUdeviceptr p = 0;
       const std::size_t bytes = as<std::size_t>(in[0]);
       CUresult r = support::raw_allocation_within_quota(bytes, CUDA_ERROR_OUT_OF_MEMORY, &p,
                                                         [&] { return driver().cuMemAlloc(&p, bytes); });
       out[0] = from(p);
       return r;
     }},
    {"cuMemFree", 1, 0, 0,
     [](const U* in, U*) {
       CUresult r = driver().cuMemFree(as<CUdeviceptr>(in[0]));
       if (r == CUDA_SUCCESS) support::refund_raw_allocation(as<CUdeviceptr>(in[0]));
       return r;
     }},
    {"cuMemAllocManaged", 2, 1, 0,
     [](const U* in, U* out) {
       CUHOST_NEED(cuMemAllocManaged);
       CUdeviceptr p = 0;
       const std::size_t bytes = as<std::size_t>(in[0]);
       CUresult r = support::raw_allocation_within_quota(bytes, CUDA_ERROR_OUT_OF_MEMORY, &p, [&] {
         return driver().cuMemAllocManaged(&p, bytes, as<unsigned>(in[1]));
       });
       out[0] = from(p);
       return r;
     }},
    {"cuMemAllocHost", 1, 1, 0,
     [](const U* in, U* out) {
       void* p = nullptr;
       CUresult r = driver().cuMemAllocHost(&p, as<std::size_t>(in[0]));
       out[0] = from(p);
       return r;
     }},
    {"cuMemFreeHost", 1, 0, 0, [](const U* in, U*) { return driver().cuMemFreeHost(as<void*>(in[0])); }},
    {"cuMemHostRegister", 3, 0, 0,
     [](const U* in, U*) {
       return driver().cuMemHostRegister(as<void*>(in[0]), as<std::size_t>(in[1]), as<unsigned>(in[2]));
     }},
    {"cuMemHostUnregister", 1, 0, 0, [](const U* in, U*) { return driver().cuMemHostUnregister(as<void*>(in[0])); }},
    {"cuMemcpyHtoD", 3, 0, 0,
     [](const U* in, U*) {
       return driver().cuMemcpyHtoD(as<CUdeviceptr>(in[0]), as<const void*>(in[1]), as<std::size_t>(in[2]));
     }},
    {"cuMemcpyDtoH", 3, 0, 0,
     [](const U* in, U*) {
       return driver().cuMemcpyDtoH(as<void*>(in[0]), as<CUdeviceptr>(in[1]), as<std::size_t>(in[2]));
     }},
    {"cuMemcpyDtoD", 3, 0, 0,
     [](const U* in, U*) {
       return driver().cuMemcpyDtoD(as<CUdeviceptr>(in[0]), as<CUdeviceptr>(in[1]), as<std::size_t>(in[2]));
     }},
    {"cuMemcpyHtoDAsync", 4, 0, 0,
     [](const U* in, U*) {
       return driver().cuMemcpyHtoDAsync(as<CUdeviceptr>(in[0]), as<const void*>(in[1]), as<std::size_t>(in[2]),
                                         as<CUstream>(in[3]));
     }},
    {"cuMemcpyDtoHAsync", 4, 0, 0,
     [](const U* in, U*) {
       return driver().cuMemcpyDtoHAsync(as<void*>(in[0]), as<CUdeviceptr>(in[1]), as<std::size_t>(in[2]),
                                         as<CUstream>(in[3]));
     }},
    {"cuMemcpyDtoDAsync", 4, 0, 0,
     [](const U* in, U*) {
       return driver().cuMemcpyDtoDAsync(as<CUdeviceptr>(in[0]), as<CUdeviceptr>(in[1]), as<std::size_t>(in[2]),
                                         as<CUstream>(in[3]));
     }},
    {"cuMemsetD8", 3, 0, 0,
     [](const U* in, U*) {
       CUHOST_NEED(cuMemsetD8);
       return driver().cuMemsetD8(as<CUdeviceptr>(in[0]), as<unsigned char>(in[1]), as<std::size_t>(in[2]));
     }},
    {"cuMemsetD8Async", 4, 0, 0,
     [](const U* in, U*) {
       return driver().cuMemsetD8Async(as<CUdeviceptr>(in[0]), as<unsigned char>(in[1]), as<std::size_t>(in[2]),
                                       as<CUstream>(in[3]));
     }},
    {"cuMemGetAddressRange", 1, 2, 0,
     [](const U* in, U* out) {
       CUHOST_NEED(cuMemGetAddressRange);
       CUdeviceptr base = 0;
       std::size_t size = 0;
       CUresult r = driver().cuMemGetAddressRange(&base, &size, as<CUdeviceptr>(in[0]));
       out[0] = from(base);
       out[1] = from(size);
       return r;
     }},
    {"cuStreamCreate", 1, 1, 0,
     [](const U* in, U* out) {
       CUstream s = nullptr;
       CUresult r = driver().cuStreamCreate(&s, as<unsigned>(in[0]));
       if (r == CUDA_SUCCESS) note_stream_created(s);
       out[0] = from(s);
       return r;
     }},
    // Retired as cuhost's own streams are (stream.h): arrays may name it as their last writer.
    {"cuStreamDestroy", 1, 0, 0, [](const U* in, U*) { return destroy_stream(as<CUstream>(in[0])); }},
    {"cuStreamSynchronize", 1, 0, 0, [](const U* in, U*) { return driver().cuStreamSynchronize(as<CUstream>(in[0])); }},
    {"cuStreamQuery", 1, 0, 0, [](const U* in, U*) { return driver().cuStreamQuery(as<CUstream>(in[0])); }},
    {"cuLibraryGetGlobal", 2, 2, 0,
     [](const U* in, U* out) {
       CUdeviceptr p = 0;
       std::size_t n = 0;
       CUresult r = driver().cuLibraryGetGlobal(&p, &n, as<CUlibrary>(in[0]), as<const char*>(in[1]));
       out[0] = from(p);
       out[1] = from(n);
       return r;
     }},
    {"cuModuleGetGlobal", 2, 2, 0,
     [](const U* in, U* out) {
       CUdeviceptr p = 0;
       std::size_t n = 0;
       CUresult r = driver().cuModuleGetGlobal(&p, &n, as<CUmodule>(in[0]), as<const char*>(in[1]));
       out[0] = from(p);
       out[1] = from(n);
       return r;
     }},
    {"cuModuleLoadData", 1, 1, 0,
     [](const U* in, U* out) {
       CUmodule m = nullptr;
       CUresult r = driver().cuModuleLoadData(&m, as<const void*>(in[0]));
       out[0] = from(m);
       return r;
     }},
    {"cuModuleUnload", 1, 0, 0, [](const U* in, U*) { return driver().cuModuleUnload(as<CUmodule>(in[0])); }},
    {"cuModuleGetFunction", 2, 1, 0,
     [](const U* in, U* out) {
       CUfunction f = nullptr;
       CUresult r = driver().cuModuleGetFunction(&f, as<CUmodule>(in[0]), as<const char*>(in[1]));
       out[0] = from(f);
       return r;
     }},
    {"cuFuncGetAttribute", 2, 1, 0,
     [](const U* in, U* out) {
       int v = 0;
       CUresult r = driver().cuFuncGetAttribute(&v, as<CUfunction_attribute>(in[0]), as<CUfunction>(in[1]));
       out[0] = static_cast<U>(static_cast<std::int64_t>(v));
       return r;
     }},
    {"cuFuncSetAttribute", 3, 0, 0,
     [](const U* in, U*) {
       return driver().cuFuncSetAttribute(as<CUfunction>(in[0]), as<CUfunction_attribute>(in[1]),
                                          static_cast<int>(static_cast<std::int64_t>(in[2])));
     }},
    {"cuFuncSetCacheConfig", 2, 0, 0,
     [](const U* in, U*) {
       CUHOST_NEED(cuFuncSetCacheConfig);
       return driver().cuFuncSetCacheConfig(as<CUfunction>(in[0]), as<CUfunc_cache>(in[1]));
     }},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessor", 3, 1, 0,
     [](const U* in, U* out) {
       int n = 0;
       CUresult r = driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, as<CUfunction>(in[0]), as<int>(in[1]),
                                                                         as<std::size_t>(in[2]));
       out[0] = from(n);
       return r;
     }},
    {"cuLaunchKernel", 11, 0, 0,
     [](const U* in, U*) {
       return driver().cuLaunchKernel(as<CUfunction>(in[0]), as<unsigned>(in[1]), as<unsigned>(in[2]),
                                      as<unsigned>(in[3]), as<unsigned>(in[4]), as<unsigned>(in[5]),
                                      as<unsigned>(in[6]), as<unsigned>(in[7]), as<CUstream>(in[8]), as<void**>(in[9]),
                                      as<void**>(in[10]));
     }},
    {"cuIpcGetMemHandle", 1, 0, 64,
     [](const U* in, U* out) {
       CUHOST_NEED(cuIpcGetMemHandle);
       CUipcMemHandle h{};
       CUresult r = driver().cuIpcGetMemHandle(&h, as<CUdeviceptr>(in[0]));
       std::memcpy(out, h.reserved, sizeof(h.reserved));
       return r;
     }},
    {"cuIpcOpenMemHandle", 2, 1, 0,
     [](const U* in, U* out) {
       CUHOST_NEED(cuIpcOpenMemHandle);
       CUipcMemHandle h{};
       std::memcpy(h.reserved, as<const void*>(in[0]), sizeof(h.reserved));
       CUdeviceptr p = 0;
       CUresult r = driver().cuIpcOpenMemHandle(&p, h, as<unsigned>(in[1]));
       out[0] = from(p);
       return r;
     }},
    {"cuIpcCloseMemHandle", 1, 0, 0,
     [](const U* in, U*) {
       CUHOST_NEED(cuIpcCloseMemHandle);
       return driver().cuIpcCloseMemHandle(as<CUdeviceptr>(in[0]));
     }},
    {"cuProfilerStart", 0, 0, 0,
     [](const U*, U*) {
       CUHOST_NEED(cuProfilerStart);
       return driver().cuProfilerStart();
     }},
    {"cuProfilerStop", 0, 0, 0,
     [](const U*, U*) {
       CUHOST_NEED(cuProfilerStop);
       return driver().cuProfilerStop();
     }},
};

#undef CUHOST_NEED

}  // namespace

const BindingCall* find_binding_call(const std::string& name) {
  static const std::map<std::string, const BindingCall*> by_name = [] {
    std::map<std::string, const BindingCall*> m;
    for (const BindingCall& c : g_calls) m[c.name] = &c;
    return m;
  }();
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

std::vector<std::string> binding_call_names() {
  std::vector<std::string> names;
  for (const BindingCall& c : g_calls) names.push_back(c.name);
  return names;
}

}  // namespace cuhost::cuda
