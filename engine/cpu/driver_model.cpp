// The CPU backend's answers to the driver entry points (see driver_model.h).
#include "cpu/driver_model.h"

#include <cuda.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <type_traits>
#include <utility>

#include "cpu/device_properties.h"
#include "support/memory_quota.h"

namespace cuhost::cpu {

namespace {

using U = std::uint64_t;
constexpr std::size_t kAlignment = 256;  // as cuMemAlloc, and cuhost's own CPU allocations

// ---- state --------------------------------------------------------------------

struct ContextInfo {
  int device = 0;
  bool primary = false;
};

struct Model {
  std::mutex mutex;
  std::map<std::uintptr_t, ContextInfo> contexts;     // live contexts by handle
  std::map<std::uintptr_t, std::size_t> allocations;  // cuMemAlloc'd blocks: base -> bytes
  std::map<std::uintptr_t, std::size_t> registered;   // cuMemHostRegister'd ranges
  std::set<std::uintptr_t> streams;                   // cuStreamCreate'd identities
  std::map<std::uintptr_t, std::vector<ModuleGlobal>> modules;
  int primary_retains = 0;
};

Model& model() {
  static Model* m = new Model();  // never destroyed
  return *m;
}

// The primary context's handle: the address of a static object, stable for the process.
char g_primary_context_storage;

thread_local std::vector<std::uintptr_t> t_context_stack;

std::uintptr_t primary() { return reinterpret_cast<std::uintptr_t>(&g_primary_context_storage); }

bool known_context(std::uintptr_t c) {
  if (c == primary()) return true;
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  return m.contexts.count(c) != 0;
}

void* aligned_block(std::size_t bytes) {
  std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  return std::aligned_alloc(kAlignment, rounded ? rounded : kAlignment);
}

template <typename T>
T as(U v) {
  if constexpr (std::is_pointer_v<T>)
    return reinterpret_cast<T>(static_cast<std::uintptr_t>(v));
  else
    return static_cast<T>(v);
}

CUresult check_device(U d) { return d == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE; }

// Attribute numbers the CPU device answers, by their CUDA names.
const std::map<int, const char*>& attribute_names() {
  static const std::map<int, const char*> names = {
#define CUHOST_ATTR(n) {CU_DEVICE_ATTRIBUTE_##n, #n}
      CUHOST_ATTR(MAX_THREADS_PER_BLOCK),
      CUHOST_ATTR(MAX_BLOCK_DIM_X),
      CUHOST_ATTR(MAX_BLOCK_DIM_Y),
      CUHOST_ATTR(MAX_BLOCK_DIM_Z),
      CUHOST_ATTR(MAX_GRID_DIM_X),
      CUHOST_ATTR(MAX_GRID_DIM_Y),
      CUHOST_ATTR(MAX_GRID_DIM_Z),
      CUHOST_ATTR(MAX_SHARED_MEMORY_PER_BLOCK),
      CUHOST_ATTR(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
      CUHOST_ATTR(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
      CUHOST_ATTR(TOTAL_CONSTANT_MEMORY),
      CUHOST_ATTR(WARP_SIZE),
      CUHOST_ATTR(MULTIPROCESSOR_COUNT),
      CUHOST_ATTR(MAX_THREADS_PER_MULTIPROCESSOR),
      CUHOST_ATTR(MAX_BLOCKS_PER_MULTIPROCESSOR),
      CUHOST_ATTR(COMPUTE_CAPABILITY_MAJOR),
      CUHOST_ATTR(COMPUTE_CAPABILITY_MINOR),
      CUHOST_ATTR(INTEGRATED),
      CUHOST_ATTR(CAN_MAP_HOST_MEMORY),
      CUHOST_ATTR(UNIFIED_ADDRESSING),
      CUHOST_ATTR(PAGEABLE_MEMORY_ACCESS),
      CUHOST_ATTR(CONCURRENT_KERNELS),
      CUHOST_ATTR(COOPERATIVE_LAUNCH),
      CUHOST_ATTR(MANAGED_MEMORY),
      CUHOST_ATTR(CONCURRENT_MANAGED_ACCESS),
      CUHOST_ATTR(KERNEL_EXEC_TIMEOUT),
      CUHOST_ATTR(ECC_ENABLED),
      CUHOST_ATTR(MULTI_GPU_BOARD),
      CUHOST_ATTR(ASYNC_ENGINE_COUNT),
      CUHOST_ATTR(STREAM_PRIORITIES_SUPPORTED),
      CUHOST_ATTR(MEMORY_POOLS_SUPPORTED),
      CUHOST_ATTR(CLUSTER_LAUNCH),
      CUHOST_ATTR(COMPUTE_MODE),
      CUHOST_ATTR(PCI_BUS_ID),
      CUHOST_ATTR(PCI_DEVICE_ID),
      CUHOST_ATTR(PCI_DOMAIN_ID),
#undef CUHOST_ATTR
  };
  return names;
}

// ---- entry points -------------------------------------------------------------------

CUresult ok() { return CUDA_SUCCESS; }

CUresult ctx_push(std::uintptr_t c) {
  if (!known_context(c)) return CUDA_ERROR_INVALID_CONTEXT;
  t_context_stack.push_back(c);
  return ok();
}

CUresult ctx_set(std::uintptr_t c) {
  if (!c) {
    if (!t_context_stack.empty()) t_context_stack.pop_back();
    return ok();
  }
  if (!known_context(c)) return CUDA_ERROR_INVALID_CONTEXT;
  if (t_context_stack.empty())
    t_context_stack.push_back(c);
  else
    t_context_stack.back() = c;
  return ok();
}

int context_device(std::uintptr_t c) {
  if (c == primary()) return 0;
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto it = m.contexts.find(c);
  return it == m.contexts.end() ? -1 : it->second.device;
}

CUresult ctx_create(U* out, U dev) {
  if (check_device(dev) != CUDA_SUCCESS) return CUDA_ERROR_INVALID_DEVICE;
  auto* token = new char;  // its address is the handle; freed by cuCtxDestroy
  std::uintptr_t c = reinterpret_cast<std::uintptr_t>(token);
  {
    Model& m = model();
    std::lock_guard<std::mutex> lock(m.mutex);
    m.contexts[c] = ContextInfo{static_cast<int>(dev), false};
  }
  t_context_stack.push_back(c);
  out[0] = c;
  return ok();
}

CUresult ctx_destroy(std::uintptr_t c) {
  if (c == primary()) return CUDA_ERROR_INVALID_CONTEXT;  // the primary context is released, not destroyed
  {
    Model& m = model();
    std::lock_guard<std::mutex> lock(m.mutex);
    if (!m.contexts.erase(c)) return CUDA_ERROR_INVALID_CONTEXT;
  }
  for (auto it = t_context_stack.begin(); it != t_context_stack.end();)
    it = *it == c ? t_context_stack.erase(it) : it + 1;
  delete reinterpret_cast<char*>(c);
  return ok();
}

CUresult mem_alloc(U* out, std::size_t bytes) {
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  void* p = aligned_block(bytes);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  m.allocations[reinterpret_cast<std::uintptr_t>(p)] = bytes;
  out[0] = reinterpret_cast<std::uintptr_t>(p);
  return ok();
}

CUresult mem_free(std::uintptr_t p) {
  if (!p) return ok();
  {
    Model& m = model();
    std::lock_guard<std::mutex> lock(m.mutex);
    if (!m.allocations.erase(p)) return CUDA_ERROR_INVALID_VALUE;
  }
  std::free(reinterpret_cast<void*>(p));
  return ok();
}

CUresult address_range(U* out, std::uintptr_t p) {
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto it = m.allocations.upper_bound(p);
  if (it == m.allocations.begin()) return CUDA_ERROR_NOT_FOUND;
  --it;
  if (p >= it->first + it->second) return CUDA_ERROR_NOT_FOUND;
  out[0] = it->first;
  out[1] = it->second;
  return ok();
}

CUresult host_register(std::uintptr_t p, std::size_t bytes) {
  if (!p || !bytes) return CUDA_ERROR_INVALID_VALUE;
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto next = m.registered.lower_bound(p);
  if (next != m.registered.end() && next->first < p + bytes) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  if (next != m.registered.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second > p) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  }
  m.registered[p] = bytes;
  return ok();
}

CUresult host_unregister(std::uintptr_t p) {
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  return m.registered.erase(p) ? ok() : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

bool known_stream(std::uintptr_t s) {
  if (s <= 2) return true;  // the null, legacy and per-thread default streams
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  return m.streams.count(s) != 0;
}

CUresult module_global(U* out, std::uintptr_t handle, const char* name) {
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto it = m.modules.find(handle);
  if (it == m.modules.end()) return CUDA_ERROR_INVALID_HANDLE;
  for (const ModuleGlobal& g : it->second)
    if (g.name == name) {
      out[0] = g.address;
      out[1] = g.bytes;
      return ok();
    }
  return CUDA_ERROR_NOT_FOUND;
}

CUresult not_supported(const U*, U*) { return CUDA_ERROR_NOT_SUPPORTED; }

const model::BindingCall g_calls[] = {
    {"cuInit", 1, 0, 0, [](const U*, U*) { return ok(); }},
    {"cuDriverGetVersion", 0, 1, 0,
     [](const U*, U* out) {
       out[0] = CUDA_VERSION;
       return ok();
     }},
    {"cuDeviceGetCount", 0, 1, 0,
     [](const U*, U* out) {
       out[0] = 1;
       return ok();
     }},
    {"cuDeviceGet", 1, 1, 0,
     [](const U* in, U* out) {
       out[0] = 0;
       return check_device(in[0]);
     }},
    {"cuDeviceGetAttribute", 2, 1, 0,
     [](const U* in, U* out) {
       if (check_device(in[1]) != CUDA_SUCCESS) return CUDA_ERROR_INVALID_DEVICE;
       auto it = attribute_names().find(static_cast<int>(in[0]));
       long value = 0;
       if (it == attribute_names().end() || !device_attribute(it->second, &value)) return CUDA_ERROR_INVALID_VALUE;
       out[0] = static_cast<U>(static_cast<std::int64_t>(value));
       return ok();
     }},
    {"cuDeviceTotalMem", 1, 1, 0,
     [](const U* in, U* out) {
       std::size_t free_bytes = 0, total = 0;
       memory_info(&free_bytes, &total);
       out[0] = total;
       return check_device(in[0]);
     }},
    {"cuDeviceGetUuid", 1, 0, 16,
     [](const U* in, U* out) {
       device_uuid(reinterpret_cast<unsigned char*>(out));
       return check_device(in[0]);
     }},
    {"cuDevicePrimaryCtxRetain", 1, 1, 0,
     [](const U* in, U* out) {
       if (check_device(in[0]) != CUDA_SUCCESS) return CUDA_ERROR_INVALID_DEVICE;
       Model& m = model();
       std::lock_guard<std::mutex> lock(m.mutex);
       ++m.primary_retains;
       out[0] = primary();
       return ok();
     }},
    {"cuDevicePrimaryCtxRelease", 1, 0, 0,
     [](const U* in, U*) {
       if (check_device(in[0]) != CUDA_SUCCESS) return CUDA_ERROR_INVALID_DEVICE;
       Model& m = model();
       std::lock_guard<std::mutex> lock(m.mutex);
       if (m.primary_retains > 0) --m.primary_retains;
       return ok();
     }},
    {"cuCtxGetCurrent", 0, 1, 0,
     [](const U*, U* out) {
       out[0] = t_context_stack.empty() ? 0 : t_context_stack.back();
       return ok();
     }},
    {"cuCtxSetCurrent", 1, 0, 0, [](const U* in, U*) { return ctx_set(static_cast<std::uintptr_t>(in[0])); }},
    {"cuCtxPushCurrent", 1, 0, 0, [](const U* in, U*) { return ctx_push(static_cast<std::uintptr_t>(in[0])); }},
    {"cuCtxPopCurrent", 0, 1, 0,
     [](const U*, U* out) {
       if (t_context_stack.empty()) return CUDA_ERROR_INVALID_CONTEXT;
       out[0] = t_context_stack.back();
       t_context_stack.pop_back();
       return ok();
     }},
    {"cuCtxGetDevice", 0, 1, 0,
     [](const U*, U* out) {
       if (t_context_stack.empty()) return CUDA_ERROR_INVALID_CONTEXT;
       int d = context_device(t_context_stack.back());
       if (d < 0) return CUDA_ERROR_INVALID_CONTEXT;
       out[0] = static_cast<U>(d);
       return ok();
     }},
    {"cuCtxCreate", 3, 1, 0, [](const U* in, U* out) { return ctx_create(out, in[2]); }},
    {"cuCtxDestroy", 1, 0, 0, [](const U* in, U*) { return ctx_destroy(static_cast<std::uintptr_t>(in[0])); }},
    {"cuCtxSynchronize", 0, 0, 0,
     [](const U*, U*) { return t_context_stack.empty() ? CUDA_ERROR_INVALID_CONTEXT : CUDA_SUCCESS; }},
    {"cuMemGetInfo", 0, 2, 0,
     [](const U*, U* out) {
       std::size_t free_bytes = 0, total = 0;
       memory_info(&free_bytes, &total);
       out[0] = free_bytes;
       out[1] = total;
       return ok();
     }},
    // A script's raw device allocations count against the memory quota (support/memory_quota.h).
    {"cuMemAlloc", 1, 1, 0,
     [](const U* in, U* out) {
       const std::size_t bytes = as<std::size_t>(in[0]);
       return support::raw_allocation_within_quota(bytes, CUDA_ERROR_OUT_OF_MEMORY, &out[0],
                                                   [&] { return mem_alloc(out, bytes); });
     }},
    {"cuMemFree", 1, 0, 0,
     [](const U* in, U*) {
       CUresult r = mem_free(static_cast<std::uintptr_t>(in[0]));
       if (r == CUDA_SUCCESS && in[0]) support::refund_raw_allocation(static_cast<std::uintptr_t>(in[0]));
       return r;
     }},
    {"cuMemAllocManaged", 2, 1, 0,
     [](const U* in, U* out) {
       if (in[1] != CU_MEM_ATTACH_GLOBAL && in[1] != CU_MEM_ATTACH_HOST) return CUDA_ERROR_INVALID_VALUE;
       const std::size_t bytes = as<std::size_t>(in[0]);
       return support::raw_allocation_within_quota(bytes, CUDA_ERROR_OUT_OF_MEMORY, &out[0],
                                                   [&] { return mem_alloc(out, bytes); });
     }},
    {"cuMemAllocHost", 1, 1, 0, [](const U* in, U* out) { return mem_alloc(out, as<std::size_t>(in[0])); }},
    {"cuMemFreeHost", 1, 0, 0, [](const U* in, U*) { return mem_free(static_cast<std::uintptr_t>(in[0])); }},
    {"cuMemHostRegister", 3, 0, 0,
     [](const U* in, U*) { return host_register(static_cast<std::uintptr_t>(in[0]), as<std::size_t>(in[1])); }},
    {"cuMemHostUnregister", 1, 0, 0,
     [](const U* in, U*) { return host_unregister(static_cast<std::uintptr_t>(in[0])); }},
    {"cuMemcpyHtoD", 3, 0, 0,
     [](const U* in, U*) {
       std::memmove(as<void*>(in[0]), as<const void*>(in[1]), as<std::size_t>(in[2]));
       return ok();
     }},
    {"cuMemcpyDtoH", 3, 0, 0,
     [](const U* in, U*) {
       std::memmove(as<void*>(in[0]), as<const void*>(in[1]), as<std::size_t>(in[2]));
       return ok();
     }},
    {"cuMemcpyDtoD", 3, 0, 0,
     [](const U* in, U*) {
       std::memmove(as<void*>(in[0]), as<const void*>(in[1]), as<std::size_t>(in[2]));
       return ok();
     }},
    {"cuMemcpyHtoDAsync", 4, 0, 0,
     [](const U* in, U*) {
       if (!known_stream(static_cast<std::uintptr_t>(in[3]))) return CUDA_ERROR_INVALID_HANDLE;
       std::memmove(as<void*>(in[0]), as<const void*>(in[1]), as<std::size_t>(in[2]));
       return ok();
     }},
    {"cuMemcpyDtoHAsync", 4, 0, 0,
     [](const U* in, U*) {
       if (!known_stream(static_cast<std::uintptr_t>(in[3]))) return CUDA_ERROR_INVALID_HANDLE;
       std::memmove(as<void*>(in[0]), as<const void*>(in[1]), as<std::size_t>(in[2]));
       return ok();
     }},
    {"cuMemcpyDtoDAsync", 4, 0, 0,
     [](const U* in, U*) {
       if (!known_stream(static_cast<std::uintptr_t>(in[3]))) return CUDA_ERROR_INVALID_HANDLE;
       std::memmove(as<void*>(in[0]), as<const void*>(in[1]), as<std::size_t>(in[2]));
       return ok();
     }},
    {"cuMemsetD8", 3, 0, 0,
     [](const U* in, U*) {
       std::memset(as<void*>(in[0]), static_cast<int>(in[1] & 0xFF), as<std::size_t>(in[2]));
       return ok();
     }},
    {"cuMemsetD8Async", 4, 0, 0,
     [](const U* in, U*) {
       if (!known_stream(static_cast<std::uintptr_t>(in[3]))) return CUDA_ERROR_INVALID_HANDLE;
       std::memset(as<void*>(in[0]), static_cast<int>(in[1] & 0xFF), as<std::size_t>(in[2]));
       return ok();
     }},
    {"cuMemGetAddressRange", 1, 2, 0,
     [](const U* in, U* out) { return address_range(out, static_cast<std::uintptr_t>(in[0])); }},
    {"cuStreamCreate", 1, 1, 0,
     [](const U*, U* out) {
       auto* token = new char;  // its address is the handle; freed by cuStreamDestroy
       std::uintptr_t s = reinterpret_cast<std::uintptr_t>(token);
       Model& m = model();
       std::lock_guard<std::mutex> lock(m.mutex);
       m.streams.insert(s);
       out[0] = s;
       return ok();
     }},
    {"cuStreamDestroy", 1, 0, 0,
     [](const U* in, U*) {
       std::uintptr_t s = static_cast<std::uintptr_t>(in[0]);
       {
         Model& m = model();
         std::lock_guard<std::mutex> lock(m.mutex);
         if (!m.streams.erase(s)) return CUDA_ERROR_INVALID_HANDLE;
       }
       delete reinterpret_cast<char*>(s);
       return ok();
     }},
    {"cuStreamSynchronize", 1, 0, 0,
     [](const U* in, U*) {
       return known_stream(static_cast<std::uintptr_t>(in[0])) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
     }},
    {"cuStreamQuery", 1, 0, 0,
     [](const U* in, U*) {
       return known_stream(static_cast<std::uintptr_t>(in[0])) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
     }},
    {"cuLibraryGetGlobal", 2, 2, 0,
     [](const U* in, U* out) {
       return module_global(out, static_cast<std::uintptr_t>(in[0]), as<const char*>(in[1]));
     }},
    {"cuModuleGetGlobal", 2, 2, 0,
     [](const U* in, U* out) {
       return module_global(out, static_cast<std::uintptr_t>(in[0]), as<const char*>(in[1]));
     }},
    {"cuModuleLoadData", 1, 1, 0, not_supported},
    {"cuModuleUnload", 1, 0, 0, [](const U*, U*) { return CUDA_ERROR_INVALID_HANDLE; }},
    {"cuModuleGetFunction", 2, 1, 0, [](const U*, U*) { return CUDA_ERROR_INVALID_HANDLE; }},
    {"cuLaunchKernel", 11, 0, 0, not_supported},
    {"cuProfilerStart", 0, 0, 0, [](const U*, U*) { return ok(); }},
    {"cuProfilerStop", 0, 0, 0, [](const U*, U*) { return ok(); }},
};

}  // namespace

const model::BindingCall* find_cpu_binding_call(const std::string& name) {
  static const std::map<std::string, const model::BindingCall*> by_name = [] {
    std::map<std::string, const model::BindingCall*> m;
    for (const model::BindingCall& c : g_calls) m[c.name] = &c;
    return m;
  }();
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

std::vector<std::string> cpu_binding_call_names() {
  std::vector<std::string> names;
  for (const model::BindingCall& c : g_calls) names.push_back(c.name);
  return names;
}

std::uintptr_t primary_context_handle() { return primary(); }

void register_module_globals(std::uintptr_t handle, std::vector<ModuleGlobal> globals) {
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  m.modules[handle] = std::move(globals);
}

void unregister_module_globals(std::uintptr_t handle) {
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  m.modules.erase(handle);
}

bool host_range_registered(std::uintptr_t p, std::size_t bytes) {
  Model& m = model();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto it = m.registered.upper_bound(p);
  if (it == m.registered.begin()) return false;
  --it;
  return p >= it->first && p + bytes <= it->first + it->second;
}

bool module_global(std::uintptr_t handle, const std::string& name, std::uintptr_t* address, std::size_t* bytes) {
  U out[2] = {};
  if (module_global(out, handle, name.c_str()) != CUDA_SUCCESS) return false;
  *address = static_cast<std::uintptr_t>(out[0]);
  *bytes = static_cast<std::size_t>(out[1]);
  return true;
}

void device_uuid(unsigned char out[16]) {
  // FNV-1a over the machine's identity and the processor's name, twice with
  // different offsets: stable for the machine, distinct between machines.
  std::string identity;
  std::ifstream id("/etc/machine-id");
  std::getline(id, identity);
  identity += "|" + device_name();
  std::uint64_t halves[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
  for (std::uint64_t& h : halves)
    for (unsigned char c : identity) {
      h ^= c;
      h *= 0x100000001b3ull;
    }
  std::memcpy(out, halves, 16);
}

}  // namespace cuhost::cpu
