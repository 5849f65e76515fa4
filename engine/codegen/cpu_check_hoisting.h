// Cheap bounds checks for the CPU backend, where every array access is
// checked by default. A check is a branch to a block that reports an index
// error; in a loop it costs a compare and a branch per access and, worse,
// its report call keeps the loop from being vectorized. Two rewrites that
// compilers of checked languages (Rust, Julia) rely on:
//   - a check implied by a dominating condition (`if i < n` with the index
//     known non-negative, n the extent checked) is removed;
//   - in an innermost loop (a block's thread loop, a fission region loop, a
//     kernel's inner loop), the checks whose index is loop-invariant or an
//     affine function of the induction variable, against a loop-invariant
//     extent, are tested once before the loop for its whole range of
//     iterations: when they all hold, a copy of the loop without them runs
//     (and vectorizes when no other check is left); otherwise the original
//     loop runs, checking each access, so a failure reports the exact
//     access and thread it always did. An index that may be negative
//     (wrapped round by a select) is not affine and keeps its check.
#pragma once

#include <llvm/IR/PassManager.h>

namespace cuhost::codegen {

class CheckHoistingPass : public llvm::PassInfoMixin<CheckHoistingPass> {
 public:
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager& am);
};

}  // namespace cuhost::codegen
