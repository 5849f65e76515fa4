// Sharing of negated products. Python's `-v * v` is `(-v) * v`; beside a
// `v * v` elsewhere (`exp(-v * v) + log(1.0 + v * v)`) LLVM keeps both
// multiplies, as neither is the other to it, where NVVM computes `v * v`
// once and negates it (P7's transcendental kernel). (-x) * y and -(x * y)
// are the same IEEE value, so such a product is rewritten as the negation of
// the plain one, which the pipeline's common-subexpression elimination then
// merges with its twin. Products with no twin are left alone. It runs late
// in scalar optimization, when a variable read twice is one SSA value.
#pragma once

#include <llvm/IR/PassManager.h>

namespace cuhost::codegen {

class NegatedProductSharingPass : public llvm::PassInfoMixin<NegatedProductSharingPass> {
 public:
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager& am);
};

}  // namespace cuhost::codegen
