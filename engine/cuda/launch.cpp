// Kernel launches through the driver (see launch.h). The last-kernel table is
// a small fixed array guarded by a mutex: launches on a handful of streams
// never allocate, and a lookup only happens when an error is reported.
#include "cuda/launch.h"

#include <mutex>

#include "cuda/driver.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {
namespace {

constexpr int kStreamSlots = 64;

struct LastKernelTable {
  std::mutex mutex;
  std::uintptr_t streams[kStreamSlots] = {};
  const std::string* names[kStreamSlots] = {};
  const std::string* last = nullptr;  // the most recent launch on any stream
  int next = 0;                       // round-robin replacement when full
};

LastKernelTable& table() {
  static LastKernelTable* t = new LastKernelTable();  // never destroyed: used until exit
  return *t;
}

void remember(std::uintptr_t stream, const std::string* name) {
  LastKernelTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.last = name;
  for (int i = 0; i < kStreamSlots; ++i) {
    if (t.names[i] && t.streams[i] == stream) {
      t.names[i] = name;
      return;
    }
  }
  for (int i = 0; i < kStreamSlots; ++i) {
    if (!t.names[i]) {
      t.streams[i] = stream;
      t.names[i] = name;
      return;
    }
  }
  int slot = t.next;
  t.next = (t.next + 1) % kStreamSlots;
  t.streams[slot] = stream;
  t.names[slot] = name;
}

}  // namespace

void launch_kernel(const KernelLaunch& l) {
  const DriverTable& d = driver();
  CUresult r;
  if (l.cooperative) {
    r = d.cuLaunchCooperativeKernel(l.function, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                                    l.shared_bytes, l.stream, l.params);
  } else {
    r = d.cuLaunchKernel(l.function, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                         l.shared_bytes, l.stream, l.params, nullptr);
  }
  if (r != CUDA_SUCCESS)
    check(r, l.cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel", l.kernel_name ? *l.kernel_name : "");
  if (l.kernel_name) remember(reinterpret_cast<std::uintptr_t>(l.stream), l.kernel_name);
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

std::string last_kernel_on_stream(std::uintptr_t stream) {
  LastKernelTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (int i = 0; i < kStreamSlots; ++i)
    if (t.names[i] && t.streams[i] == stream) return *t.names[i];
  return {};
}

std::string last_kernel_launched() {
  LastKernelTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.last ? *t.last : std::string();
}

}  // namespace cuhost::cuda
