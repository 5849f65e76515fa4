// The NRT allocation counters of CPU kernels (codegen/lowering/nrt.h):
// kernels bump them atomically through the whitelisted symbol
// `cuhost_nrt_stats` while counting is on; numba's rtsys reads and switches
// them (python/nrt_api.cpp).
#pragma once

#include <cstdint>

// {enabled, alloc, free, mi_alloc, mi_free}
extern "C" std::int64_t cuhost_nrt_stats[5];

namespace cuhost::cpu {

struct NrtCounts {
  std::int64_t alloc = 0, free = 0, mi_alloc = 0, mi_free = 0;
};

void nrt_set_counting(bool enabled);
bool nrt_counting();
NrtCounts nrt_counts();

}  // namespace cuhost::cpu
