// The conversions LLVM's NVPTX backend lowers wrongly, rewritten before PTX
// emission (see nvptx_conversions.h for each defect).
#include "codegen/nvptx_conversions.h"

#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace cuhost::codegen {

namespace {

bool is_signed_bool_to_float(const llvm::Instruction& i) {
  return llvm::isa<llvm::SIToFPInst>(i) && i.getOperand(0)->getType()->getScalarType()->isIntegerTy(1);
}

bool is_float_to_byte(const llvm::Instruction& i) {
  return (llvm::isa<llvm::FPToSIInst>(i) || llvm::isa<llvm::FPToUIInst>(i)) &&
         i.getType()->getScalarType()->isIntegerTy(8);
}

// `c` as a select of -1.0 and 0.0 (splats for vectors).
llvm::Value* select_of_bool(llvm::IRBuilder<>& b, llvm::CastInst* c) {
  llvm::Type* t = c->getType();
  return b.CreateSelect(c->getOperand(0), llvm::ConstantFP::get(t, -1.0), llvm::ConstantFP::get(t, 0.0), c->getName());
}

// `c` as the 16-bit conversion truncated to 8 bits.
llvm::Value* byte_through_16_bits(llvm::IRBuilder<>& b, llvm::CastInst* c) {
  llvm::Type* wide = c->getType()->getWithNewBitWidth(16);
  llvm::Value* x = c->getOperand(0);
  llvm::Value* w = llvm::isa<llvm::FPToSIInst>(c) ? b.CreateFPToSI(x, wide) : b.CreateFPToUI(x, wide);
  return b.CreateTrunc(w, c->getType(), c->getName());
}

}  // namespace

int rewrite_conversions_for_nvptx(llvm::Module& m) {
  std::vector<llvm::CastInst*> found;
  for (llvm::Function& f : m)
    for (llvm::Instruction& i : llvm::instructions(f))
      if (is_signed_bool_to_float(i) || is_float_to_byte(i)) found.push_back(llvm::cast<llvm::CastInst>(&i));
  for (llvm::CastInst* c : found) {
    llvm::IRBuilder<> b(c);
    llvm::Value* v = llvm::isa<llvm::SIToFPInst>(c) ? select_of_bool(b, c) : byte_through_16_bits(b, c);
    c->replaceAllUsesWith(v);
    c->eraseFromParent();
  }
  return static_cast<int>(found.size());
}

}  // namespace cuhost::codegen
