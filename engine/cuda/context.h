// The primary context of each device, retained once per process and made
// current on the calling thread on demand. cuhost never creates its own
// contexts: it shares the primary contexts with the host application (and
// with the CUDA runtime API the host may use), so pointers and streams the
// host lends are valid in them. The current context is per thread, as in
// the driver; this layer also answers which device a context, a stream or a
// pointer belongs to, and enables peer access between devices.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <new>
#include <string>

namespace cuhost::cuda {

// Devices cuhost keeps per-device state for (ordinals 0..kMaxDevices-1).
constexpr int kMaxDevices = 64;

// The primary context of device `ordinal`, retained on first use (not made
// current). Throws CudaSupportError/CudaAPIError on failure.
CUcontext primary_context(int ordinal);

// Retains (first call per device) and makes current the primary context of
// device `ordinal`, checking with the driver which context is current.
CUcontext make_primary_context_current(int ordinal);

// The same for the launch hot path: trusts what cuhost itself last made
// current on this thread (no driver call when that is the device's context).
// A host that switches contexts on a thread behind cuhost's back must switch
// back before cuhost launches there again.
CUcontext use_primary_context(int ordinal);

// Forgets what cuhost last made current on this thread, so the next
// use_primary_context asks the driver: after calls into libraries that may
// switch the thread's context themselves (NCCL calls cudaSetDevice).
void context_may_have_changed();

// Makes `ctx` (a context saved with cuCtxGetCurrent before a switch, maybe
// null) current again on this thread.
void restore_current_context(CUcontext ctx);

// Makes `ctx` current on this thread for a scope (cuCtxPushCurrent) and
// the context before it current again at its end (cuCtxPopCurrent), leaving
// what cuhost believes is current (use_primary_context) untouched: work in
// another device's context from any thread, the watchdog's included.
class PushedContext {
 public:
  // Throws CudaAPIError when the driver refuses the push.
  explicit PushedContext(CUcontext ctx);
  // Never throws: pushed() says whether the push took.
  PushedContext(CUcontext ctx, std::nothrow_t);
  ~PushedContext();
  PushedContext(const PushedContext&) = delete;
  PushedContext& operator=(const PushedContext&) = delete;
  bool pushed() const { return pushed_; }

 private:
  bool pushed_ = false;
};

// The context current on this thread (cuCtxGetCurrent; null when none).
CUcontext current_context();

// The ordinal whose primary context is `ctx`, or -1 for a context cuhost did
// not retain (one the host created itself).
int device_of_context(CUcontext ctx);

// The device a stream belongs to (cuStreamGetCtx), or -1 when the driver
// cannot say or the context is not a primary context cuhost knows.
int device_of_stream(CUstream stream);

// What the driver knows of an address: its memory type (CU_MEMORYTYPE_*, 0
// for memory the driver does not know) and the device owning it (-1 when
// none). Asked through cuPointerGetAttributes, which answers for any
// address: cuPointerGetAttribute fails with CUDA_ERROR_INVALID_VALUE for a
// plain host buffer (a NumPy array's), a driver error that
// compute-sanitizer reports in every script asking about one.
struct PointerFacts {
  unsigned memory_type = 0;
  int device = -1;
};
PointerFacts pointer_facts(std::uintptr_t pointer);

// The device owning a device pointer, or -1 when the driver does not know it.
int device_of_pointer(std::uintptr_t pointer);

// cuDeviceGetAttribute for device `ordinal` (no context needed).
int device_attribute(int ordinal, CUdevice_attribute attribute);

// The device's name (cuDeviceGetName).
std::string device_name(int ordinal);

// Whether kernels running on `device` can read and write memory of `peer`
// (cuDeviceCanAccessPeer; false for the same device, which needs no peer
// access). Cached per pair.
bool can_access_peer(int device, int peer);

// Lets kernels on `device` use memory of `peer` (cuCtxEnablePeerAccess in
// `device`'s context), once per pair; the context that is current on the
// calling thread is left as it was. Throws CudaAPIError when the driver
// refuses.
void enable_peer_access(int device, int peer);

}  // namespace cuhost::cuda
