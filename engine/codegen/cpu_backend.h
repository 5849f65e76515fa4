// Stage 7 for the host: a TargetMachine for this CPU (its native features)
// so the O3 pipeline vectorizes the block loops for the machine we run on.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/foreign.h"

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace cuhost::codegen {

std::unique_ptr<llvm::TargetMachine> make_host_target_machine();

// Makes every defined symbol but `keep` internal (so O3 can inline and drop them).
void internalize_except(llvm::Module& m, const std::vector<std::string>& keep);

// Links the host implementation of every foreign function called (its
// cpu_link items, else its link items compiled for the host by ffi/),
// each item once.
void link_host_foreign(llvm::Module& m, const std::vector<std::shared_ptr<const ir::ForeignFunction>>& foreign);

}  // namespace cuhost::codegen
