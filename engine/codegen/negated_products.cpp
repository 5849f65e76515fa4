// Negated-product sharing (see negated_products.h).
#include "codegen/negated_products.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

#include <set>
#include <utility>
#include <vector>

namespace cuhost::codegen {

llvm::PreservedAnalyses NegatedProductSharingPass::run(llvm::Function& f, llvm::FunctionAnalysisManager&) {
  using namespace llvm::PatternMatch;
  // Every plain product's operand pair, either order.
  std::set<std::pair<llvm::Value*, llvm::Value*>> plain;
  std::vector<llvm::BinaryOperator*> negated;
  for (llvm::Instruction& i : llvm::instructions(f)) {
    auto* mul = llvm::dyn_cast<llvm::BinaryOperator>(&i);
    if (!mul || mul->getOpcode() != llvm::Instruction::FMul) continue;
    llvm::Value* a = mul->getOperand(0);
    llvm::Value* b = mul->getOperand(1);
    const bool neg_a = match(a, m_FNeg(m_Value()));
    const bool neg_b = match(b, m_FNeg(m_Value()));
    if (neg_a != neg_b) {
      negated.push_back(mul);
    } else if (!neg_a) {
      plain.insert({a, b});
      plain.insert({b, a});
    }
  }
  bool changed = false;
  for (llvm::BinaryOperator* mul : negated) {
    llvm::Value* a = mul->getOperand(0);
    llvm::Value* b = mul->getOperand(1);
    llvm::Value* x = nullptr;
    llvm::Value* y = nullptr;
    if (match(a, m_FNeg(m_Value(x))))
      y = b;
    else if (match(b, m_FNeg(m_Value(x))))
      y = a;
    if (!x || !plain.count({x, y})) continue;
    llvm::IRBuilder<> b_(mul);
    b_.setFastMathFlags(mul->getFastMathFlags());
    llvm::Value* product = b_.CreateFMul(x, y, mul->getName() + ".plain");
    llvm::Value* negation = b_.CreateFNeg(product, mul->getName());
    mul->replaceAllUsesWith(negation);
    mul->eraseFromParent();
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

}  // namespace cuhost::codegen
