// Float-to-8-bit conversions through 16 bits, before PTX emission (see
// nvptx_byte_conversions.h for why).
#include "codegen/nvptx_byte_conversions.h"

#include <vector>

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace cuhost::codegen {

int narrow_float_to_byte_conversions(llvm::Module& m) {
  std::vector<llvm::CastInst*> found;
  for (llvm::Function& f : m)
    for (llvm::Instruction& i : llvm::instructions(f))
      if (llvm::isa<llvm::FPToSIInst>(i) || llvm::isa<llvm::FPToUIInst>(i))
        if (i.getType()->getScalarType()->isIntegerTy(8)) found.push_back(llvm::cast<llvm::CastInst>(&i));
  for (llvm::CastInst* c : found) {
    llvm::IRBuilder<> b(c);
    llvm::Type* wide = c->getType()->getWithNewBitWidth(16);
    llvm::Value* x = c->getOperand(0);
    llvm::Value* w = llvm::isa<llvm::FPToSIInst>(c) ? b.CreateFPToSI(x, wide) : b.CreateFPToUI(x, wide);
    llvm::Value* v = b.CreateTrunc(w, c->getType(), c->getName());
    c->replaceAllUsesWith(v);
    c->eraseFromParent();
  }
  return static_cast<int>(found.size());
}

}  // namespace cuhost::codegen
