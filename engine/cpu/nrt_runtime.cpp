// The NRT's host side for CPU kernels (see nrt_runtime.h). Kernels update
// the counters with atomic instructions; the host side reads and writes
// them atomically too.
#include "cpu/nrt_runtime.h"

#include <cstdlib>

alignas(64) std::int64_t cuhost_nrt_stats[5] = {0, 0, 0, 0, 0};

void* cuhost_cpu_nrt_malloc(std::uint64_t bytes) { return std::malloc(static_cast<std::size_t>(bytes)); }
void cuhost_cpu_nrt_free(void* p) { std::free(p); }

namespace cuhost::cpu {

namespace {
std::int64_t load(int k) { return __atomic_load_n(&cuhost_nrt_stats[k], __ATOMIC_ACQUIRE); }
}  // namespace

void nrt_set_counting(bool enabled) { __atomic_store_n(&cuhost_nrt_stats[0], enabled ? 1 : 0, __ATOMIC_RELEASE); }
bool nrt_counting() { return load(0) != 0; }
NrtCounts nrt_counts() { return {load(1), load(2), load(3), load(4)}; }

}  // namespace cuhost::cpu
