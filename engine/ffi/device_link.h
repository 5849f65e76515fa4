// Links foreign .cu sources that clang compiled for NVPTX (ffi/device_compile.h)
// into a kernel's LLVM module before optimization, so their functions inline
// like the kernel's own. A source is taken only when its module is plain
// device code: no globals but constant data, no calls to anything outside
// itself but LLVM intrinsics NVPTX lowers; the others stay link items for
// nvJitLink (NVRTC), as do all items of a fastmath kernel (flush-to-zero
// would then reach the foreign code, which NVRTC compiles without it).
#pragma once

#include <string>
#include <vector>

#include "ir/foreign.h"

namespace llvm {
class Module;
}  // namespace llvm

namespace cuhost::ffi {

// Links what it can of `items` into `m`; returns the items left for
// nvJitLink. When some are left, the inlined functions stay visible (added to
// `keep`), so a symbol that another item defines again is still reported by
// nvJitLink as defined twice, as without inlining.
std::vector<ir::LinkItem> link_device_foreign(llvm::Module& m, const std::vector<ir::LinkItem>& items, int cc_major,
                                              int cc_minor, bool fastmath, std::vector<std::string>* keep);

}  // namespace cuhost::ffi
