// The NRT's host side for CPU kernels (codegen/lowering/nrt.h): the heap
// their arrays come from (cuhost_cpu_nrt_malloc/free, the C library's; the
// whitelist holds these rather than malloc/free themselves) and the
// allocation counters they bump atomically through the whitelisted symbol
// `cuhost_nrt_stats` while counting is on; numba's rtsys reads and switches
// them (python/nrt_api.cpp).
#pragma once

#include <cstdint>

extern "C" {
// {enabled, alloc, free, mi_alloc, mi_free}
extern std::int64_t cuhost_nrt_stats[5];
void* cuhost_cpu_nrt_malloc(std::uint64_t bytes);
void cuhost_cpu_nrt_free(void* p);
}

namespace cuhost::cpu {

struct NrtCounts {
  std::int64_t alloc = 0, free = 0, mi_alloc = 0, mi_free = 0;
};

void nrt_set_counting(bool enabled);
bool nrt_counting();
NrtCounts nrt_counts();

}  // namespace cuhost::cpu
