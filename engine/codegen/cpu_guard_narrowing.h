// Narrowing of guarded loops for the CPU backend's loop fission. A region
// loop runs every thread of a block, but a region often works on a prefix of
// them only: `if t < s: buf[t] += buf[t + s]` in a tree reduction, with s
// the same for the whole block. When the loop's only effects are under such
// a guard (the induction variable below a loop-invariant bound), the
// iterations past the bound do nothing: the loop is made to stop there, and
// its body loses the guard, so the vectorizer sees a plain loop without
// masked loads and stores. (LLVM's own LoopBoundSplit handles if/else
// diamonds only; IRCE keeps a post-loop over the idle iterations.)
#pragma once

#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>

namespace cuhost::codegen {

class GuardNarrowingPass : public llvm::PassInfoMixin<GuardNarrowingPass> {
 public:
  llvm::PreservedAnalyses run(llvm::Loop& loop, llvm::LoopAnalysisManager& am, llvm::LoopStandardAnalysisResults& ar,
                              llvm::LPMUpdater& updater);
};

}  // namespace cuhost::codegen
