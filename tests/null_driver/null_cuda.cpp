// A stand-in libcuda.so.1 that does no GPU work, for measuring and profiling
// cuhost's own host-side launch cost (argument typing, plan lookup, packing,
// GIL handling) and for testing the CUDA backend's host paths on a machine
// without a GPU. Device memory is host memory, copies are memcpy, launches
// return immediately, a loaded library's globals are zeroed host blocks (only
// names found in the loaded image exist). Stream capture and graphs are
// emulated in null_graphs.cpp. Never put it on a real run's library path:
// results computed "on" it are not computed at all.
//
// It models the driver's multi-device rules, so the host paths of several
// GPUs are tested too: CUHOST_NULL_DEVICES=N exposes N devices (default 1),
// each with its own primary context; the current context is per thread;
// functions, streams and events belong to the context they were made in.
// As on a real driver (CUDA C Programming Guide, "Stream and Event Behavior"):
// a launch fails with CUDA_ERROR_INVALID_HANDLE when its function was loaded
// in another context than the current one or its stream belongs to another
// context; an event can only be recorded on a stream of its own context;
// copies, stream waits and event queries work across contexts. Allocations
// need a current context and remember their device (cuPointerGetAttribute);
// cuDeviceCanAccessPeer says yes between distinct devices unless
// CUHOST_NULL_PEER=0. The work of the streams cuhost creates is deferred
// until something orders it (null_streams.h), as a GPU may run it late.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "null_failures.h"
#include "null_graphs.h"
#include "null_streams.h"

namespace {

constexpr int kMaxDevices = 64;

struct NullContext {
  int device = 0;
  std::set<int> peers;  // devices whose memory kernels of this context may access
};

struct NullKernel;

struct NullFunction {
  NullContext* ctx = nullptr;
  const NullKernel* kernel = nullptr;  // null for functions of modules (parameters unknown)
};

// A kernel of a loaded library, with its functions per context; its
// parameter sizes come from the cubin's .nv.info.<name> section
// (EIATTR_KPARAM_INFO), for graph kernel nodes.
struct NullKernel {
  std::string name;
  std::vector<size_t> param_sizes;
  bool sizes_known = false;
  std::map<NullContext*, std::unique_ptr<NullFunction>> functions;
};

struct NullLibrary {
  std::string image;
  std::map<NullContext*, std::map<std::string, std::vector<char>>> globals;  // per context, as on a GPU
  std::map<std::string, std::unique_ptr<NullKernel>> kernels;
};

struct NullStream {
  NullContext* ctx = nullptr;
};

struct NullEvent {
  NullContext* ctx = nullptr;
};

struct Allocation {
  std::size_t bytes = 0;
  int device = 0;
};

std::mutex g_mutex;
NullContext g_contexts[kMaxDevices];
thread_local NullContext* t_current = nullptr;
std::map<std::uintptr_t, Allocation> g_allocations;  // base address -> allocation
std::map<std::uintptr_t, std::size_t> g_pinned;      // page-locked host memory: base -> bytes

// Whether [p, p + n) is page-locked host memory, which an asynchronous copy
// to the host writes late; pageable memory it writes before returning.
bool pinned(const void* p, std::size_t n) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_pinned.upper_bound(a);
  if (it == g_pinned.begin()) return false;
  --it;
  return a >= it->first && a + n <= it->first + it->second;
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

int device_count() {
  static const int n = [] {
    int v = env_int("CUHOST_NULL_DEVICES", 1);
    return v < 1 ? 1 : (v > kMaxDevices ? kMaxDevices : v);
  }();
  return n;
}

bool valid_device(CUdevice d) { return d >= 0 && d < device_count(); }

bool peer_capable() { return env_int("CUHOST_NULL_PEER", 1) != 0; }

CUresult ok() { return CUDA_SUCCESS; }

NullContext* as_context(CUcontext c) { return reinterpret_cast<NullContext*>(c); }

// The context a stream belongs to; the special handles (0, legacy,
// per-thread) mean the current context's own.
// The streams created and not destroyed. A real driver reads freed memory
// when given a destroyed stream (and may crash, or not); this one stops
// the process with a message, so such a use fails every time.
std::set<CUstream> g_live_streams;

NullContext* stream_context(CUstream s) {
  if (s == nullptr || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD) return t_current;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_live_streams.count(s)) {
      std::fprintf(stderr, "null driver: stream %p used after cuStreamDestroy (or never created)\n",
                   static_cast<void*>(s));
      std::abort();
    }
  }
  return reinterpret_cast<NullStream*>(s)->ctx;
}

// The device of a device pointer (interior pointers included), or -1.
int device_of(std::uintptr_t p) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_allocations.upper_bound(p);
  if (it == g_allocations.begin()) return -1;
  --it;
  return p < it->first + (it->second.bytes ? it->second.bytes : 1) ? it->second.device : -1;
}

CUresult null_init(unsigned) { return ok(); }
CUresult null_driver_version(int* v) {
  *v = CUDA_VERSION;
  return ok();
}
const char* code_name(CUresult r) {
  switch (r) {
    case CUDA_SUCCESS: return "CUDA_SUCCESS";
    case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
    case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case CUDA_ERROR_INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
    case CUDA_ERROR_INVALID_CONTEXT: return "CUDA_ERROR_INVALID_CONTEXT";
    case CUDA_ERROR_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
    case CUDA_ERROR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
    case CUDA_ERROR_PEER_ACCESS_UNSUPPORTED: return "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED";
    case CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED: return "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED";
    default: return "CUDA_ERROR_NULL_DRIVER";
  }
}
CUresult null_error_name(CUresult r, const char** s) {
  *s = code_name(r);
  return ok();
}
CUresult null_error_string(CUresult r, const char** s) {
  switch (r) {
    case CUDA_ERROR_INVALID_HANDLE: *s = "invalid resource handle"; break;
    case CUDA_ERROR_INVALID_CONTEXT: *s = "invalid device context"; break;
    case CUDA_ERROR_INVALID_DEVICE: *s = "invalid device ordinal"; break;
    default: *s = "null driver"; break;
  }
  return ok();
}
CUresult null_device_count(int* n) {
  *n = device_count();
  return ok();
}
CUresult null_device_get(CUdevice* d, int ordinal) {
  if (!valid_device(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return ok();
}
CUresult null_device_name(char* name, int len, CUdevice d) {
  if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
  std::strncpy(name, "cuhost null driver", static_cast<size_t>(len));
  if (len > 0) name[len - 1] = '\0';
  return ok();
}
CUresult null_device_attribute(int* v, CUdevice_attribute a, CUdevice d) {
  if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: *v = d + 1; break;
    default: *v = 1; break;
  }
  return ok();
}
CUresult null_total_mem(size_t* bytes, CUdevice) {
  *bytes = size_t{80} << 30;
  return ok();
}
CUresult null_uuid(CUuuid* u, CUdevice d) {
  std::memset(u, 0, sizeof *u);
  u->bytes[0] = static_cast<char>(d);
  return ok();
}
CUresult null_can_access_peer(int* can, CUdevice d, CUdevice peer) {
  if (!valid_device(d) || !valid_device(peer)) return CUDA_ERROR_INVALID_DEVICE;
  *can = d != peer && peer_capable();
  return ok();
}
CUresult null_ctx_retain(CUcontext* c, CUdevice d) {
  if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
  g_contexts[d].device = d;
  *c = reinterpret_cast<CUcontext>(&g_contexts[d]);
  return ok();
}
CUresult null_ctx_release(CUdevice) { return ok(); }
// Contexts made current form a per-thread stack, as with the driver.
thread_local std::vector<CUcontext> t_context_stack;
void sync_current() { t_current = t_context_stack.empty() ? nullptr : as_context(t_context_stack.back()); }
CUresult null_ctx_set(CUcontext c) {
  if (!c) {
    if (!t_context_stack.empty()) t_context_stack.pop_back();
  } else if (t_context_stack.empty()) {
    t_context_stack.push_back(c);
  } else {
    t_context_stack.back() = c;
  }
  sync_current();
  return ok();
}
CUresult null_ctx_get(CUcontext* c) {
  *c = reinterpret_cast<CUcontext>(t_current);
  return ok();
}
CUresult null_ctx_push(CUcontext c) {
  t_context_stack.push_back(c);
  sync_current();
  return ok();
}
CUresult null_ctx_pop(CUcontext* c) {
  if (t_context_stack.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  *c = t_context_stack.back();
  t_context_stack.pop_back();
  sync_current();
  return ok();
}
CUresult null_ctx_get_device(CUdevice* d) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  *d = t_current->device;
  return ok();
}
CUresult null_ctx_create(CUcontext* c, CUctxCreateParams*, unsigned, CUdevice d) {
  if (!valid_device(d)) return CUDA_ERROR_INVALID_DEVICE;
  *c = reinterpret_cast<CUcontext>(new NullContext{d, {}});
  t_context_stack.push_back(*c);
  sync_current();
  return ok();
}
CUresult null_ctx_destroy(CUcontext c) {
  for (auto it = t_context_stack.begin(); it != t_context_stack.end();)
    it = *it == c ? t_context_stack.erase(it) : it + 1;
  sync_current();
  NullContext* ctx = as_context(c);
  if (ctx < g_contexts || ctx >= g_contexts + kMaxDevices) delete ctx;  // primary contexts are never freed
  return ok();
}
CUresult null_ctx_enable_peer(CUcontext peer, unsigned) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  NullContext* p = as_context(peer);
  if (!p || p == t_current || !peer_capable()) return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!t_current->peers.insert(p->device).second) return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  return ok();
}
CUresult null_sync() {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  if (CUresult r = null_driver::check_unsafe_call()) return r;
  null_driver::drain_context(t_current);
  return ok();
}
CUresult null_alloc(CUdeviceptr* p, size_t bytes) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  if (CUresult r = null_driver::check_unsafe_call()) return r;
  void* m = std::calloc(bytes ? bytes : 1, 1);
  if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = reinterpret_cast<CUdeviceptr>(m);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_allocations[static_cast<std::uintptr_t>(*p)] = Allocation{bytes, t_current->device};
  return ok();
}
CUresult null_alloc_managed(CUdeviceptr* p, size_t bytes, unsigned) { return null_alloc(p, bytes); }
CUresult null_free(CUdeviceptr p) {
  if (CUresult r = null_driver::check_unsafe_call()) return r;
  null_driver::drain_context(nullptr);  // freeing waits for the device; queued work must not touch freed memory
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_allocations.find(static_cast<std::uintptr_t>(p));
    if (it == g_allocations.end()) return CUDA_ERROR_INVALID_VALUE;
    g_allocations.erase(it);
  }
  std::free(reinterpret_cast<void*>(p));
  return ok();
}
CUresult null_address_range(CUdeviceptr* base, size_t* size, CUdeviceptr p) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_allocations.upper_bound(p);
  if (it == g_allocations.begin()) return CUDA_ERROR_NOT_FOUND;
  --it;
  if (p >= it->first + (it->second.bytes ? it->second.bytes : 1)) return CUDA_ERROR_NOT_FOUND;
  *base = it->first;
  *size = it->second.bytes;
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
  if (CUresult r = null_driver::check_unsafe_call()) return r;
  null_driver::enqueue(nullptr, t_current, [=] { std::memset(reinterpret_cast<void*>(d), v, n); });
  return ok();
}
CUresult null_profiler() { return ok(); }
CUresult null_func_cache(CUfunction, CUfunc_cache) { return ok(); }
CUresult null_active_blocks(int* n, CUfunction, int, size_t) {
  *n = 2;
  return ok();
}
CUresult null_alloc_host(void** p, size_t bytes) {
  if (CUresult r = null_driver::check_unsafe_call()) return r;
  *p = std::calloc(bytes ? bytes : 1, 1);
  if (!*p) return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_pinned[reinterpret_cast<std::uintptr_t>(*p)] = bytes;
  return ok();
}
CUresult null_free_host(void* p) {
  null_driver::drain_context(nullptr);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_pinned.erase(reinterpret_cast<std::uintptr_t>(p));
  }
  std::free(p);
  return ok();
}
CUresult null_register(void* p, size_t bytes, unsigned) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_pinned[reinterpret_cast<std::uintptr_t>(p)] = bytes;
  return ok();
}
CUresult null_unregister(void* p) {
  null_driver::drain_context(nullptr);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_pinned.erase(reinterpret_cast<std::uintptr_t>(p));
  return ok();
}
CUresult null_htod(CUdeviceptr d, const void* h, size_t n) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  if (CUresult r = null_driver::check_unsafe_call()) return r;
  null_driver::enqueue(nullptr, t_current, [=] { std::memcpy(reinterpret_cast<void*>(d), h, n); });
  return ok();
}
CUresult null_dtoh(void* h, CUdeviceptr d, size_t n) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  if (CUresult r = null_driver::check_unsafe_call()) return r;
  null_driver::enqueue(nullptr, t_current, [=] { std::memcpy(h, reinterpret_cast<const void*>(d), n); });
  return ok();
}
CUresult null_dtod(CUdeviceptr a, CUdeviceptr b, size_t n) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  null_driver::enqueue(nullptr, t_current,
                       [=] { std::memmove(reinterpret_cast<void*>(a), reinterpret_cast<const void*>(b), n); });
  return ok();
}
// An asynchronous copy from the host reads the host bytes when it is queued
// (the driver stages pageable memory; cuhost never changes a pinned source
// before the copy is ordered), and writes the device bytes when it runs.
CUresult null_htod_async(CUdeviceptr d, const void* h, size_t n, CUstream s) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  if (null_driver::capture_copy(s, reinterpret_cast<void*>(d), h, n)) return ok();
  auto bytes = std::make_shared<std::vector<char>>(static_cast<const char*>(h), static_cast<const char*>(h) + n);
  null_driver::enqueue(s, t_current, [=] { std::memcpy(reinterpret_cast<void*>(d), bytes->data(), n); });
  return ok();
}
// To pageable memory the copy is synchronous (after the stream's work), to
// page-locked memory it runs with the stream.
CUresult null_dtoh_async(void* h, CUdeviceptr d, size_t n, CUstream s) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  if (null_driver::capture_copy(s, h, reinterpret_cast<const void*>(d), n)) return ok();
  auto copy = [=] { std::memcpy(h, reinterpret_cast<const void*>(d), n); };
  if (pinned(h, n)) {
    null_driver::enqueue(s, t_current, copy);
  } else {
    null_driver::drain_stream(s, t_current);
    copy();
  }
  return ok();
}
CUresult null_dtod_async(CUdeviceptr a, CUdeviceptr b, size_t n, CUstream s) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  if (null_driver::capture_copy(s, reinterpret_cast<void*>(a), reinterpret_cast<const void*>(b), n)) return ok();
  null_driver::enqueue(s, t_current,
                       [=] { std::memmove(reinterpret_cast<void*>(a), reinterpret_cast<const void*>(b), n); });
  return ok();
}
// A peer copy names the context of each side; the pointers must live there.
CUresult null_peer_async(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n, CUstream s) {
  if (!dst_ctx || !src_ctx) return CUDA_ERROR_INVALID_CONTEXT;
  if (n && (device_of(dst) != as_context(dst_ctx)->device || device_of(src) != as_context(src_ctx)->device))
    return CUDA_ERROR_INVALID_VALUE;
  if (null_driver::capture_copy(s, reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n)) return ok();
  null_driver::enqueue(s, t_current,
                       [=] { std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n); });
  return ok();
}
const char* plane(CUmemorytype type, const void* host, CUdeviceptr device) {
  return type == CU_MEMORYTYPE_HOST ? static_cast<const char*>(host) : reinterpret_cast<const char*>(device);
}
CUresult null_copy_2d(const CUDA_MEMCPY2D* c, CUstream s) {
  if (CUresult r = null_driver::check_stream_wait(s)) return r;  // not captured by the null driver
  null_driver::drain_stream(s, t_current);                       // and done at once
  const char* src = plane(c->srcMemoryType, c->srcHost, c->srcDevice) + c->srcY * c->srcPitch + c->srcXInBytes;
  char* dst =
      const_cast<char*>(plane(c->dstMemoryType, c->dstHost, c->dstDevice)) + c->dstY * c->dstPitch + c->dstXInBytes;
  for (size_t row = 0; row < c->Height; ++row)
    std::memcpy(dst + row * c->dstPitch, src + row * c->srcPitch, c->WidthInBytes);
  return ok();
}
CUresult null_memset(CUdeviceptr d, unsigned char v, size_t n, CUstream s) {
  if (null_driver::capture_memset(s, reinterpret_cast<void*>(d), v, n)) return ok();
  null_driver::enqueue(s, t_current, [=] { std::memset(reinterpret_cast<void*>(d), v, n); });
  return ok();
}
CUresult null_mem_info(size_t* free_bytes, size_t* total) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  *free_bytes = size_t{70} << 30;
  *total = size_t{80} << 30;
  return ok();
}
CUresult null_pointer_attribute(void* data, CUpointer_attribute attribute, CUdeviceptr p) {
  int device = device_of(static_cast<std::uintptr_t>(p));
  if (device < 0) return CUDA_ERROR_INVALID_VALUE;
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(data) = device; return ok();
    case CU_POINTER_ATTRIBUTE_CONTEXT:
      *static_cast<CUcontext*>(data) = reinterpret_cast<CUcontext>(&g_contexts[device]);
      return ok();
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *static_cast<unsigned*>(data) = CU_MEMORYTYPE_DEVICE; return ok();
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}
// Answers for any address, as the driver's does: unknown memory reads as
// type 0 and ordinal -2.
CUresult null_pointer_attributes(unsigned count, CUpointer_attribute* attributes, void** data, CUdeviceptr p) {
  int device = device_of(static_cast<std::uintptr_t>(p));
  for (unsigned i = 0; i < count; ++i) {
    switch (attributes[i]) {
      case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(data[i]) = device < 0 ? -2 : device; break;
      case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *static_cast<unsigned*>(data[i]) = device < 0 ? 0u : unsigned(CU_MEMORYTYPE_DEVICE);
        break;
      default: return CUDA_ERROR_INVALID_VALUE;
    }
  }
  return ok();
}
CUresult null_stream_create(CUstream* s, unsigned flags) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  *s = reinterpret_cast<CUstream>(new NullStream{t_current});
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_live_streams.insert(*s);
  }
  null_driver::stream_created(*s, t_current, flags);
  return ok();
}
CUresult null_stream_destroy(CUstream s) {
  null_driver::stream_destroyed(s);
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_live_streams.erase(s);
  }
  delete reinterpret_cast<NullStream*>(s);
  return ok();
}
CUresult null_stream_get_ctx(CUstream s, CUcontext* c) {
  NullContext* ctx = stream_context(s);
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  *c = reinterpret_cast<CUcontext>(ctx);
  return ok();
}
CUresult null_stream_sync(CUstream s) {
  NullContext* ctx = stream_context(s);
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  if (CUresult r = null_driver::check_stream_wait(s)) return r;
  null_driver::drain_stream(s, ctx);
  return ok();
}
// Across contexts too. The stream's later work runs after the event's work:
// that work runs now.
CUresult null_stream_wait(CUstream, CUevent e, unsigned) {
  null_driver::drain_to_event(e);
  return ok();
}
CUresult null_event_create(CUevent* e, unsigned) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  *e = reinterpret_cast<CUevent>(new NullEvent{t_current});
  return ok();
}
CUresult null_event_destroy(CUevent e) {
  null_driver::event_destroyed(e);
  delete reinterpret_cast<NullEvent*>(e);
  return ok();
}
CUresult null_event_record(CUevent e, CUstream s) {
  if (reinterpret_cast<NullEvent*>(e)->ctx != stream_context(s)) return CUDA_ERROR_INVALID_HANDLE;
  null_driver::record_event(e, s);
  return ok();
}
CUresult null_event_sync(CUevent e) {
  null_driver::drain_to_event(e);
  return ok();
}
CUresult null_elapsed(float* ms, CUevent a, CUevent b) {
  if (reinterpret_cast<NullEvent*>(a)->ctx != reinterpret_cast<NullEvent*>(b)->ctx) return CUDA_ERROR_INVALID_HANDLE;
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
// A library is context-independent (it loads into each context on first
// use); its kernels' functions and its globals are per context.
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
CUresult null_library_kernel(CUkernel* k, CUlibrary lib, const char* name) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto* l = reinterpret_cast<NullLibrary*>(lib);
  std::unique_ptr<NullKernel>& kernel = l->kernels[name];
  if (!kernel) {
    kernel = std::make_unique<NullKernel>();
    kernel->name = name;
    kernel->sizes_known = null_driver::kparam_sizes(l->image, name, &kernel->param_sizes);
  }
  *k = reinterpret_cast<CUkernel>(kernel.get());
  return ok();
}
CUresult null_library_global(CUdeviceptr* p, size_t* bytes, CUlibrary lib, const char* name) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard<std::mutex> lock(g_mutex);
  auto* l = reinterpret_cast<NullLibrary*>(lib);
  auto& globals = l->globals[t_current];
  auto it = globals.find(name);
  if (it == globals.end()) {
    if (!memmem(l->image.data(), l->image.size(), name, std::strlen(name))) return CUDA_ERROR_NOT_FOUND;
    it = globals.emplace(name, std::vector<char>(4096, 0)).first;
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
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard<std::mutex> lock(g_mutex);
  auto* kernel = reinterpret_cast<NullKernel*>(k);
  std::unique_ptr<NullFunction>& fn = kernel->functions[t_current];
  if (!fn) fn = std::make_unique<NullFunction>(NullFunction{t_current, kernel});
  *f = reinterpret_cast<CUfunction>(fn.get());
  return ok();
}
struct NullModule {
  NullFunction function;
};
CUresult null_module_load(CUmodule* m, const void*) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  *m = reinterpret_cast<CUmodule>(new NullModule{NullFunction{t_current}});
  return ok();
}
CUresult null_module_load_ex(CUmodule* m, const void* image, unsigned, CUjit_option*, void**) {
  return null_module_load(m, image);
}
CUresult null_module_unload(CUmodule m) {
  delete reinterpret_cast<NullModule*>(m);
  return ok();
}
CUresult null_module_function(CUfunction* f, CUmodule m, const char*) {
  *f = reinterpret_cast<CUfunction>(&reinterpret_cast<NullModule*>(m)->function);
  return ok();
}
CUresult null_module_global(CUdeviceptr*, size_t*, CUmodule, const char*) { return CUDA_ERROR_NOT_FOUND; }
CUresult null_func_attribute(int* v, CUfunction_attribute a, CUfunction) {
  *v = a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0;
  return ok();
}
CUresult null_func_set_attribute(CUfunction, CUfunction_attribute, int) { return ok(); }
// A launch runs in the current context: its function must have been loaded
// there, and its stream must belong to it.
CUresult check_launch(CUfunction f, CUstream stream) {
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  NullContext* ctx = reinterpret_cast<NullFunction*>(f)->ctx;
  if (ctx != t_current || stream_context(stream) != ctx) return CUDA_ERROR_INVALID_HANDLE;
  return ok();
}
// The cluster shape of the cuLaunchKernelEx being made on this thread (a
// captured launch's node keeps it), null outside one.
thread_local const unsigned* t_launch_cluster = nullptr;
CUresult null_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                     unsigned shared, CUstream stream, void** params, void**) {
  if (CUresult r = check_launch(f, stream)) return r;
  const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  null_driver::capture_launch(stream, f, grid, block, shared, params, t_launch_cluster);
  return ok();
}
CUresult null_launch_cooperative(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned shared, CUstream stream, void** params) {
  return null_launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, nullptr);
}
// Thread-block cluster launches (cuLaunchKernelEx with a cluster dimension):
// the grid must be a whole number of clusters of at most 8 blocks, as on sm_90.
// The last cluster shape launched is kept for cuhostNullLastCluster().
unsigned g_last_cluster[3] = {0, 0, 0};
CUresult null_launch_ex(const CUlaunchConfig* config, CUfunction f, void** params, void** extra) {
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute& a = config->attrs[i];
    if (a.id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) continue;
    const auto& c = a.value.clusterDim;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      g_last_cluster[0] = c.x;
      g_last_cluster[1] = c.y;
      g_last_cluster[2] = c.z;
    }
    if (c.x == 0 || c.y == 0 || c.z == 0 || c.x * c.y * c.z > 8 || config->gridDimX % c.x || config->gridDimY % c.y ||
        config->gridDimZ % c.z)
      return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  }
  unsigned cluster[3] = {1, 1, 1};
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      cluster[0] = config->attrs[i].value.clusterDim.x;
      cluster[1] = config->attrs[i].value.clusterDim.y;
      cluster[2] = config->attrs[i].value.clusterDim.z;
    }
  t_launch_cluster = cluster;
  CUresult r =
      null_launch(f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX, config->blockDimY,
                  config->blockDimZ, config->sharedMemBytes, config->hStream, params, extra);
  t_launch_cluster = nullptr;
  return r;
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

}  // namespace

namespace null_driver {

const std::vector<size_t>* param_sizes(CUfunction f) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const NullKernel* k = reinterpret_cast<const NullFunction*>(f)->kernel;
  return k && k->sizes_known ? &k->param_sizes : nullptr;
}

const void* current_context() { return t_current; }

const void* context_of_stream(CUstream s) { return stream_context(s); }

}  // namespace null_driver

namespace {

// Each entry records its failures (null_failures.h).
#define NULL_ENTRY(name, fn) \
  { #name, reinterpret_cast < void*>(&null_driver::Recorded <&fn>::call) }
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
    NULL_ENTRY(cuDeviceCanAccessPeer, null_can_access_peer),
    NULL_ENTRY(cuDevicePrimaryCtxRetain, null_ctx_retain),
    NULL_ENTRY(cuDevicePrimaryCtxRelease, null_ctx_release),
    NULL_ENTRY(cuCtxSetCurrent, null_ctx_set),
    NULL_ENTRY(cuCtxGetCurrent, null_ctx_get),
    NULL_ENTRY(cuCtxGetDevice, null_ctx_get_device),
    NULL_ENTRY(cuCtxSynchronize, null_sync),
    NULL_ENTRY(cuCtxEnablePeerAccess, null_ctx_enable_peer),
    NULL_ENTRY(cuCtxPushCurrent, null_ctx_push),
    NULL_ENTRY(cuCtxPopCurrent, null_ctx_pop),
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
    NULL_ENTRY(cuMemcpyPeerAsync, null_peer_async),
    NULL_ENTRY(cuMemcpy2DAsync, null_copy_2d),
    NULL_ENTRY(cuMemsetD8Async, null_memset),
    NULL_ENTRY(cuMemGetInfo, null_mem_info),
    NULL_ENTRY(cuPointerGetAttribute, null_pointer_attribute),
    NULL_ENTRY(cuPointerGetAttributes, null_pointer_attributes),
    NULL_ENTRY(cuStreamCreate, null_stream_create),
    NULL_ENTRY(cuStreamDestroy, null_stream_destroy),
    NULL_ENTRY(cuStreamGetCtx, null_stream_get_ctx),
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
    NULL_ENTRY(cuLaunchKernelEx, null_launch_ex),
    NULL_ENTRY(cuOccupancyMaxPotentialBlockSize, null_occupancy),
};
#undef NULL_ENTRY

}  // namespace

const char* null_driver::entry_name(const void* fn) {
  for (const auto& e : g_entries)
    if (e.fn == fn) return e.name;
  return "?";
}

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
  size_t graph_count = 0;
  const null_driver::Entry* graph = null_driver::graph_entries(&graph_count);
  for (size_t i = 0; i < graph_count; ++i) {
    if (std::strcmp(graph[i].name, symbol) == 0) {
      *pfn = graph[i].fn;
      if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  }
  *pfn = nullptr;
  if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}

// The cluster shape of the last cuLaunchKernelEx (zeros before any), for
// tests/null_driver/cluster_launch.py.
extern "C" __attribute__((visibility("default"))) void cuhostNullLastCluster(unsigned* out) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (int i = 0; i < 3; ++i) out[i] = g_last_cluster[i];
}
