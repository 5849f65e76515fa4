// Cancellation points at loop headers (see cpu_cancellation.h).
#include "codegen/cpu_cancellation.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <vector>

namespace cuhost::codegen {

unsigned insert_cancellation_points(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  auto* flag = llvm::cast<llvm::GlobalVariable>(m.getOrInsertGlobal("cuhost_cpu_cancel_requested", i32));
  llvm::FunctionCallee cancelled =
      m.getOrInsertFunction("cuhost_cpu_cancelled", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(cancelled.getCallee())) {
    f->setDoesNotReturn();
    f->setDoesNotThrow();
  }
  unsigned count = 0;
  for (llvm::Function& fn : m) {
    if (fn.isDeclaration()) continue;
    std::vector<llvm::BasicBlock*> headers;
    {
      llvm::DominatorTree dt(fn);
      llvm::LoopInfo loops(dt);
      for (llvm::Loop* loop : loops.getLoopsInPreorder()) headers.push_back(loop->getHeader());
    }
    for (llvm::BasicBlock* header : headers) {
      // header: phis | load flag; br (flag != 0) cancel, rest
      llvm::BasicBlock* rest = llvm::SplitBlock(header, header->getFirstNonPHIOrDbgOrAlloca());
      llvm::BasicBlock* cancel = llvm::BasicBlock::Create(ctx, "cancelled", &fn, rest);
      llvm::IRBuilder<> b(cancel);
      llvm::CallInst* call = b.CreateCall(cancelled);
      call->setDoesNotReturn();
      b.CreateUnreachable();
      header->getTerminator()->eraseFromParent();
      b.SetInsertPoint(header);
      llvm::LoadInst* requested = b.CreateAlignedLoad(i32, flag, llvm::Align(4), "cancel.requested");
      requested->setAtomic(llvm::AtomicOrdering::Monotonic);
      b.CreateCondBr(b.CreateICmpNE(requested, b.getInt32(0)), cancel, rest,
                     llvm::MDBuilder(ctx).createUnlikelyBranchWeights());
      ++count;
    }
  }
  return count;
}

}  // namespace cuhost::codegen
