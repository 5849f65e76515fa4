// Stage 7 for the host: a TargetMachine for this CPU (its native features)
// so the O3 pipeline vectorizes the block loops for the machine we run on.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace cuhost::codegen {

std::unique_ptr<llvm::TargetMachine> make_host_target_machine();

// Makes every defined symbol but `keep` internal (so O3 can inline and drop them).
void internalize_except(llvm::Module& m, const std::vector<std::string>& keep);

}  // namespace cuhost::codegen
