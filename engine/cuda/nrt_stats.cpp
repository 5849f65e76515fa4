// The GPU kernels' NRT allocation counters (see nrt_stats.h).
#include "cuda/nrt_stats.h"

#include <map>
#include <mutex>

#include "codegen/nrt_symbols.h"
#include "cuda/context.h"
#include "cuda/module_globals.h"

namespace cuhost::cuda {

namespace {

struct Blocks {
  std::mutex mutex;
  std::map<CUcontext, CUdeviceptr> by_context;
  bool counting = false;
};

Blocks& blocks() {
  static auto* b = new Blocks();  // kept for the process, as the contexts
  return *b;
}

}  // namespace

void bind_nrt_stats(CUlibrary library) {
  const DriverTable& d = driver();
  CUcontext context = current_context();
  Blocks& b = blocks();
  CUdeviceptr block = 0;
  {
    std::lock_guard<std::mutex> lock(b.mutex);
    auto it = b.by_context.find(context);
    if (it == b.by_context.end()) {
      check(d.cuMemAlloc(&block, 5 * sizeof(std::int64_t)), "cuMemAlloc");
      const std::int64_t init[5] = {b.counting ? 1 : 0, 0, 0, 0, 0};
      check(d.cuMemcpyHtoD(block, init, sizeof(init)), "cuMemcpyHtoD");
      b.by_context.emplace(context, block);
    } else {
      block = it->second;
    }
  }
  point_library_global(library, codegen::kNrtStatsPointerSymbol, block);
}

void nrt_set_device_counting(bool enabled) {
  Blocks& b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  b.counting = enabled;
  const std::int64_t flag = enabled ? 1 : 0;
  for (const auto& [context, block] : b.by_context) {
    PushedContext in_context(context);
    check(driver().cuCtxSynchronize(), "cuCtxSynchronize");  // launches before the switch count as before
    check(driver().cuMemcpyHtoD(block, &flag, sizeof(flag)), "cuMemcpyHtoD");
  }
}

void nrt_device_counts(std::int64_t out[4]) {
  for (int k = 0; k < 4; ++k) out[k] = 0;
  Blocks& b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  for (const auto& [context, block] : b.by_context) {
    std::int64_t values[5] = {0, 0, 0, 0, 0};
    {
      PushedContext in_context(context);
      check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
      check(driver().cuMemcpyDtoH(values, block, sizeof(values)), "cuMemcpyDtoH");
    }
    for (int k = 0; k < 4; ++k) out[k] += values[k + 1];
  }
}

}  // namespace cuhost::cuda
