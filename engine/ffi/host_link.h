// Links the host implementation of the foreign functions a CPU module calls
// (their cpu_link items, else their link items compiled for the host by
// host_compile.h) into the module before optimization, each item once, so
// they inline like the kernel's own code. The runtime's compiler calls it
// between lowering and optimization; codegen knows nothing of foreign code.
#pragma once

#include <memory>
#include <vector>

#include "ir/foreign.h"

namespace llvm {
class Module;
}  // namespace llvm

namespace cuhost::ffi {

// Links the host implementation of every foreign function called (its
// cpu_link items, else its link items compiled for the host by ffi/),
// each item once.
void link_host_foreign(llvm::Module& m, const std::vector<std::shared_ptr<const ir::ForeignFunction>>& foreign);

}  // namespace cuhost::ffi
