// The per-thread device (see devices.h): a thread-local choice over the
// session's default device, and a process-wide record of the devices whose
// contexts were used.
#include "runtime/devices.h"

#include <algorithm>
#include <atomic>

#include "cuda/context.h"
#include "cuda/driver.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

namespace {

thread_local int t_selected = -1;
std::atomic<std::uint64_t> g_used{0};

bool on_cuda() { return session().backend == Backend::Cuda; }

void note_used(int device) {
  if (device >= 0 && device < kMaxDevices) {
    const std::uint64_t bit = std::uint64_t(1) << device;
    if (!(g_used.load(std::memory_order_relaxed) & bit)) g_used.fetch_or(bit, std::memory_order_relaxed);
  }
}

}  // namespace

int current_device() {
  if (t_selected >= 0) return t_selected;
  const Session& s = session();
  return s.backend == Backend::Cuda ? s.device : 0;
}

void select_device(int ordinal) {
  if (on_cuda()) make_device_current(ordinal);
  t_selected = ordinal;
}

void forget_selected_device() { t_selected = -1; }

int device_count() { return on_cuda() ? cuda::driver_status().device_count : 1; }

bool valid_device(int ordinal) { return ordinal >= 0 && ordinal < device_count() && ordinal < kMaxDevices; }

void make_device_current(int device) {
  if (!on_cuda()) return;
  cuda::make_primary_context_current(device);
  note_used(device);
}

void use_device_context(int device) {
  if (!on_cuda()) return;
  cuda::use_primary_context(device);
  note_used(device);
}

DeviceScope::DeviceScope(int device) {
  const int now = current_device();
  if (device < 0 || device == now) return;
  previous_selection_ = t_selected;
  if (on_cuda()) make_device_current(device);
  t_selected = device;
  previous_device_ = now;
}

DeviceScope::~DeviceScope() {
  if (previous_device_ < 0) return;
  t_selected = previous_selection_;
  try {
    if (on_cuda()) make_device_current(previous_device_);
  } catch (...) {
    // the next use of the device reports a broken context
  }
}

void lowest_compute_capability(int* major, int* minor) {
  int best_major = -1, best_minor = 0;
  const int n = std::min(cuda::driver_status().device_count, kMaxDevices);
  for (int i = 0; i < n; ++i) {
    int ma = cuda::device_attribute(i, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    int mi = cuda::device_attribute(i, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    if (best_major < 0 || ma < best_major || (ma == best_major && mi < best_minor)) {
      best_major = ma;
      best_minor = mi;
    }
  }
  *major = best_major;
  *minor = best_minor;
}

std::vector<int> devices_in_use() {
  std::vector<int> out;
  const std::uint64_t used = g_used.load(std::memory_order_relaxed);
  for (int i = 0; i < kMaxDevices; ++i)
    if (used & (std::uint64_t(1) << i)) out.push_back(i);
  return out;
}

bool use_peer_memory(int device, int peer) {
  if (device == peer || !on_cuda()) return true;
  if (!cuda::can_access_peer(device, peer)) return false;
  cuda::enable_peer_access(device, peer);
  return true;
}

}  // namespace cuhost::runtime
