// The cancellation flag as the generated code sees it (GPU kernel
// deadlines, nvptx_cancellation.h): the module global that holds the flag's
// device address, and the check a cancellation point makes. Shared by the
// countdown of general loops and the chunks of counted loops
// (nvptx_chunked_loops.h).
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <utility>

namespace llvm {
class BasicBlock;
class GlobalVariable;
class Module;
}  // namespace llvm

namespace cuhost::codegen {

// The module's kGpuCancelFlagSymbol global (an i64 the host writes after
// loading the module), created on first use.
llvm::GlobalVariable* flag_address_global(llvm::Module& m);

// Reads the flag from `b`'s insertion point (which ends the block) and goes
// on to `rest`, or ends the thread when it is raised:
//   addr = load @flag_address; br addr != 0, read, rest
//   read: f = load volatile addr; br f != 0, stop, rest
//   stop: exit (PTX); unreachable
// Returns the two blocks that branch to `rest` (for its phis).
std::pair<llvm::BasicBlock*, llvm::BasicBlock*> check_flag(llvm::IRBuilder<>& b, llvm::GlobalVariable* flag_address,
                                                           llvm::BasicBlock* rest);

}  // namespace cuhost::codegen
