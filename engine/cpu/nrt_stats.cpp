// The CPU kernels' NRT allocation counters (see nrt_stats.h). Kernels
// update them with atomic instructions; the host side reads and writes them
// atomically too.
#include "cpu/nrt_stats.h"

alignas(64) std::int64_t cuhost_nrt_stats[5] = {0, 0, 0, 0, 0};

namespace cuhost::cpu {

namespace {
std::int64_t load(int k) { return __atomic_load_n(&cuhost_nrt_stats[k], __ATOMIC_ACQUIRE); }
}  // namespace

void nrt_set_counting(bool enabled) { __atomic_store_n(&cuhost_nrt_stats[0], enabled ? 1 : 0, __ATOMIC_RELEASE); }
bool nrt_counting() { return load(0) != 0; }
NrtCounts nrt_counts() { return {load(1), load(2), load(3), load(4)}; }

}  // namespace cuhost::cpu
