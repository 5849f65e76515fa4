// Primary-context management (see context.h). The retained contexts live for
// the process: Python is never finalized, so objects holding device memory
// may outlive any teardown order we could pick. The table of retained
// contexts is read without a lock (one atomic per device), since every launch
// consults it.
#include "cuda/context.h"

#include <atomic>
#include <mutex>

#include "cuda/driver.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {

namespace {

std::atomic<CUcontext> g_retained[kMaxDevices];
std::mutex g_retain_mutex;
// What cuhost last made current on this thread (see use_primary_context).
thread_local CUcontext t_made_current = nullptr;

// Peer answers per (device, peer): 0 unknown, 1 no, 2 yes; enabled pairs.
std::atomic<signed char> g_peer_answer[kMaxDevices][kMaxDevices];
std::atomic<bool> g_peer_enabled[kMaxDevices][kMaxDevices];
std::mutex g_peer_mutex;

void check_ordinal(int ordinal) {
  if (ordinal < 0 || ordinal >= kMaxDevices)
    throw UserError(ErrorKind::CudaSupportError,
                    concat("no CUDA device ", ordinal, " (cuhost supports ordinals 0 to ", kMaxDevices - 1, ")"));
}

CUdevice device_handle(int ordinal) {
  CUdevice dev = 0;
  check(driver().cuDeviceGet(&dev, ordinal), "cuDeviceGet");
  return dev;
}

}  // namespace

CUcontext primary_context(int ordinal) {
  check_ordinal(ordinal);
  if (CUcontext ctx = g_retained[ordinal].load(std::memory_order_acquire)) return ctx;
  std::lock_guard<std::mutex> lock(g_retain_mutex);
  if (CUcontext ctx = g_retained[ordinal].load(std::memory_order_acquire)) return ctx;
  const DriverTable& d = driver();
  CUcontext ctx = nullptr;
  check(d.cuDevicePrimaryCtxRetain(&ctx, device_handle(ordinal)), "cuDevicePrimaryCtxRetain");
  g_retained[ordinal].store(ctx, std::memory_order_release);
  return ctx;
}

CUcontext make_primary_context_current(int ordinal) {
  CUcontext ctx = primary_context(ordinal);
  const DriverTable& d = driver();
  CUcontext current = nullptr;
  check(d.cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  if (current != ctx) check(d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  t_made_current = ctx;
  return ctx;
}

CUcontext use_primary_context(int ordinal) {
  if (ordinal >= 0 && ordinal < kMaxDevices) {
    CUcontext ctx = g_retained[ordinal].load(std::memory_order_acquire);
    if (ctx && ctx == t_made_current) return ctx;
  }
  return make_primary_context_current(ordinal);
}

void context_may_have_changed() { t_made_current = nullptr; }

void restore_current_context(CUcontext ctx) {
  check(driver().cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  t_made_current = ctx;
}

PushedContext::PushedContext(CUcontext ctx) {
  check(driver().cuCtxPushCurrent(ctx), "cuCtxPushCurrent");
  pushed_ = true;
}

PushedContext::PushedContext(CUcontext ctx, std::nothrow_t) : pushed_(driver().cuCtxPushCurrent(ctx) == CUDA_SUCCESS) {}

PushedContext::~PushedContext() {
  CUcontext popped = nullptr;
  if (pushed_) driver().cuCtxPopCurrent(&popped);
}

CUcontext current_context() {
  CUcontext ctx = nullptr;
  check(driver().cuCtxGetCurrent(&ctx), "cuCtxGetCurrent");
  return ctx;
}

int device_of_context(CUcontext ctx) {
  if (!ctx) return -1;
  for (int i = 0; i < kMaxDevices; ++i)
    if (g_retained[i].load(std::memory_order_acquire) == ctx) return i;
  return -1;
}

int device_of_stream(CUstream stream) {
  const DriverTable& d = driver();
  if (!d.cuStreamGetCtx) return -1;
  CUcontext ctx = nullptr;
  if (d.cuStreamGetCtx(stream, &ctx) != CUDA_SUCCESS) return -1;
  return device_of_context(ctx);
}

PointerFacts pointer_facts(std::uintptr_t pointer) {
  const DriverTable& d = driver();
  PointerFacts facts;
  if (!d.cuPointerGetAttributes) return facts;
  unsigned memory_type = 0;
  int ordinal = -2;
  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  void* values[] = {&memory_type, &ordinal};
  if (d.cuPointerGetAttributes(2, attributes, values, static_cast<CUdeviceptr>(pointer)) != CUDA_SUCCESS ||
      memory_type == 0)
    return facts;
  facts.memory_type = memory_type;
  facts.device = ordinal >= 0 ? ordinal : -1;
  return facts;
}

int device_of_pointer(std::uintptr_t pointer) { return pointer_facts(pointer).device; }

int device_attribute(int ordinal, CUdevice_attribute attribute) {
  int value = 0;
  check(driver().cuDeviceGetAttribute(&value, attribute, device_handle(ordinal)), "cuDeviceGetAttribute");
  return value;
}

std::string device_name(int ordinal) {
  char name[256] = {};
  check(driver().cuDeviceGetName(name, sizeof(name) - 1, device_handle(ordinal)), "cuDeviceGetName");
  return name;
}

bool can_access_peer(int device, int peer) {
  check_ordinal(device);
  check_ordinal(peer);
  if (device == peer) return false;
  signed char known = g_peer_answer[device][peer].load(std::memory_order_acquire);
  if (known) return known == 2;
  const DriverTable& d = driver();
  int can = 0;
  if (!d.cuDeviceCanAccessPeer) return false;
  check(d.cuDeviceCanAccessPeer(&can, device_handle(device), device_handle(peer)), "cuDeviceCanAccessPeer");
  g_peer_answer[device][peer].store(can ? 2 : 1, std::memory_order_release);
  return can != 0;
}

void enable_peer_access(int device, int peer) {
  check_ordinal(device);
  check_ordinal(peer);
  if (g_peer_enabled[device][peer].load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(g_peer_mutex);
  if (g_peer_enabled[device][peer].load(std::memory_order_acquire)) return;
  const DriverTable& d = driver();
  CUcontext previous = nullptr;
  check(d.cuCtxGetCurrent(&previous), "cuCtxGetCurrent");
  CUcontext own = primary_context(device);
  CUcontext other = primary_context(peer);
  if (previous != own) check(d.cuCtxSetCurrent(own), "cuCtxSetCurrent");
  CUresult r = d.cuCtxEnablePeerAccess(other, 0);
  if (previous != own) {
    d.cuCtxSetCurrent(previous);
    t_made_current = previous;
  }
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
    check(r, concat("cuCtxEnablePeerAccess (device ", device, " to the memory of device ", peer, ")").c_str());
  g_peer_enabled[device][peer].store(true, std::memory_order_release);
}

}  // namespace cuhost::cuda
