// Kernel launches through the driver (see launch.h). The last-kernel table is
// a small fixed array: launches on a handful of streams never allocate, a
// launch that repeats the stream's last kernel only reads it (no lock), and
// changes and lookups (made when an error is reported) take its mutex.
#include "cuda/launch.h"

#include <atomic>
#include <mutex>

#include "cuda/driver.h"
#include "cuda/kernel_deadline.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {
namespace {

constexpr int kStreamSlots = 64;

// Slots are written under the mutex; the launch fast path reads them without
// it (atomics, so a racing read sees an old or a new pair, never a torn one:
// at worst it takes the locked path).
struct LastKernelTable {
  std::mutex mutex;
  std::atomic<std::uintptr_t> streams[kStreamSlots] = {};
  std::atomic<const std::string*> names[kStreamSlots] = {};
  std::atomic<const std::string*> last{nullptr};  // the most recent launch on any stream
  int next = 0;                                   // round-robin replacement when full
};

LastKernelTable& table() {
  static LastKernelTable* t = new LastKernelTable();  // never destroyed: used until exit
  return *t;
}

// The slot of `stream` (-1 when it has none); the caller holds the mutex, or
// only reads.
int slot_of(const LastKernelTable& t, std::uintptr_t stream) {
  for (int i = 0; i < kStreamSlots; ++i) {
    const std::string* name = t.names[i].load(std::memory_order_acquire);
    if (!name) return -1;  // slots fill in order and are never emptied
    if (t.streams[i].load(std::memory_order_relaxed) == stream) return i;
  }
  return -1;
}

void remember(std::uintptr_t stream, const std::string* name) {
  LastKernelTable& t = table();
  if (t.last.load(std::memory_order_relaxed) == name) {
    int i = slot_of(t, stream);
    if (i >= 0 && t.names[i].load(std::memory_order_relaxed) == name) return;  // nothing changes
  }
  std::lock_guard<std::mutex> lock(t.mutex);
  t.last.store(name, std::memory_order_relaxed);
  int i = slot_of(t, stream);
  if (i < 0) {
    for (i = 0; i < kStreamSlots && t.names[i].load(std::memory_order_relaxed); ++i) {
    }
    if (i == kStreamSlots) {
      i = t.next;
      t.next = (t.next + 1) % kStreamSlots;
    }
    // A reader matching the old stream in this slot meanwhile sees either pair.
    t.names[i].store(nullptr, std::memory_order_release);
    t.streams[i].store(stream, std::memory_order_relaxed);
  }
  t.names[i].store(name, std::memory_order_release);
}

}  // namespace

void launch_kernel(const KernelLaunch& l) {
  const DriverTable& d = driver();
  CUresult r;
  const bool clustered = l.cluster[0] * l.cluster[1] * l.cluster[2] > 1;
  if (clustered) {
    CUlaunchAttribute attributes[2] = {};
    attributes[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attributes[0].value.clusterDim.x = l.cluster[0];
    attributes[0].value.clusterDim.y = l.cluster[1];
    attributes[0].value.clusterDim.z = l.cluster[2];
    attributes[1].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attributes[1].value.cooperative = l.cooperative ? 1 : 0;
    CUlaunchConfig config = {};
    config.gridDimX = l.grid[0];
    config.gridDimY = l.grid[1];
    config.gridDimZ = l.grid[2];
    config.blockDimX = l.block[0];
    config.blockDimY = l.block[1];
    config.blockDimZ = l.block[2];
    config.sharedMemBytes = l.shared_bytes;
    config.hStream = l.stream;
    config.attrs = attributes;
    config.numAttrs = 2;
    r = d.cuLaunchKernelEx(&config, l.function, l.params, nullptr);
  } else if (l.cooperative) {
    r = d.cuLaunchCooperativeKernel(l.function, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                                    l.shared_bytes, l.stream, l.params);
  } else {
    r = d.cuLaunchKernel(l.function, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                         l.shared_bytes, l.stream, l.params, nullptr);
  }
  if (r != CUDA_SUCCESS)
    check(r,
          clustered       ? "cuLaunchKernelEx"
          : l.cooperative ? "cuLaunchCooperativeKernel"
                          : "cuLaunchKernel",
          l.kernel_name ? *l.kernel_name : "");
  if (l.kernel_name) remember(reinterpret_cast<std::uintptr_t>(l.stream), l.kernel_name);
  if (l.cancellable) wait_under_deadline(l.stream, l.kernel_name ? *l.kernel_name : std::string());
}

void set_max_dynamic_shared(CUfunction function, unsigned bytes, const std::string& kernel_name) {
  check(driver().cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(bytes)),
        "cuFuncSetAttribute", kernel_name);
}

unsigned function_static_shared(CUfunction function, const std::string& kernel_name) {
  int bytes = 0;
  check(driver().cuFuncGetAttribute(&bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function), "cuFuncGetAttribute",
        kernel_name);
  return static_cast<unsigned>(bytes);
}

void set_function_attribute(CUfunction function, CUfunction_attribute attribute, int value,
                            const std::string& kernel_name) {
  check(driver().cuFuncSetAttribute(function, attribute, value), "cuFuncSetAttribute", kernel_name);
}

int function_attribute(CUfunction function, CUfunction_attribute attribute, const std::string& kernel_name) {
  int value = 0;
  check(driver().cuFuncGetAttribute(&value, attribute, function), "cuFuncGetAttribute", kernel_name);
  return value;
}

std::string last_kernel_on_stream(std::uintptr_t stream) {
  LastKernelTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  int i = slot_of(t, stream);
  return i >= 0 ? *t.names[i].load(std::memory_order_relaxed) : std::string();
}

std::string last_kernel_launched() {
  LastKernelTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  const std::string* last = t.last.load(std::memory_order_relaxed);
  return last ? *last : std::string();
}

}  // namespace cuhost::cuda
