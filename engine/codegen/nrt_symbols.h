// The names through which the host reaches the NRT allocation counters of
// kernels compiled with CUDA_ENABLE_NRT (codegen/lowering/nrt.h): on the
// GPU the module's pointer to the device block, written by the loader
// (cuda/nrt_stats.h); on the CPU the runtime's own counters (cpu/nrt_runtime.h).
#pragma once

namespace llvm {
class Module;
}

namespace cuhost::codegen {

inline constexpr const char* kNrtStatsPointerSymbol = "cuhost_nrt_stats_ptr";
inline constexpr const char* kNrtStatsSymbol = "cuhost_nrt_stats";

// After optimization: removes the counters' pointer when no code of the
// module uses it any more (the reference counting of arrays known to own
// nothing folded away), so loading the module binds nothing
// (codegen/lowering/nrt_runtime.cpp).
void drop_unreferenced_nrt_stats(llvm::Module& m);

}  // namespace cuhost::codegen
