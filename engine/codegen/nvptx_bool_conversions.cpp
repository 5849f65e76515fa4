// Signed one-bit-to-float conversions as selects, before PTX emission (see
// nvptx_bool_conversions.h for the backend defect this avoids).
#include "codegen/nvptx_bool_conversions.h"

#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace cuhost::codegen {

int rewrite_signed_bool_to_float(llvm::Module& m) {
  std::vector<llvm::SIToFPInst*> found;
  for (llvm::Function& f : m)
    for (llvm::Instruction& i : llvm::instructions(f))
      if (auto* c = llvm::dyn_cast<llvm::SIToFPInst>(&i))
        if (c->getOperand(0)->getType()->getScalarType()->isIntegerTy(1)) found.push_back(c);
  for (llvm::SIToFPInst* c : found) {
    llvm::IRBuilder<> b(c);
    llvm::Type* t = c->getType();
    llvm::Value* minus_one = llvm::ConstantFP::get(t, -1.0);  // splat for vectors
    llvm::Value* zero = llvm::ConstantFP::get(t, 0.0);
    llvm::Value* v = b.CreateSelect(c->getOperand(0), minus_one, zero, c->getName());
    c->replaceAllUsesWith(v);
    c->eraseFromParent();
  }
  return static_cast<int>(found.size());
}

}  // namespace cuhost::codegen
