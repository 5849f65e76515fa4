// The cancellation flag as the generated code sees it (see nvptx_flag_check.h).
#include "codegen/nvptx_flag_check.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include "codegen/nvptx_cancellation.h"

namespace cuhost::codegen {

namespace {
constexpr unsigned kGlobalAddressSpace = 1;

}  // namespace

llvm::GlobalVariable* flag_address_global(llvm::Module& m) {
  if (auto* g = m.getNamedGlobal(kGpuCancelFlagSymbol)) return g;
  llvm::Type* i64 = llvm::Type::getInt64Ty(m.getContext());
  // Weak: a module linking PTX that cuhost compiled under the same option
  // (compile_ptx output, declare_device) holds one definition of it too.
  auto* g = new llvm::GlobalVariable(m, i64, /*isConstant=*/false, llvm::GlobalValue::WeakAnyLinkage,
                                     llvm::ConstantInt::get(i64, 0), kGpuCancelFlagSymbol, nullptr,
                                     llvm::GlobalValue::NotThreadLocal, kGlobalAddressSpace,
                                     /*isExternallyInitialized=*/true);
  g->setAlignment(llvm::Align(8));
  return g;
}

std::pair<llvm::BasicBlock*, llvm::BasicBlock*> check_flag(llvm::IRBuilder<>& b, llvm::GlobalVariable* flag_address,
                                                           llvm::BasicBlock* rest) {
  llvm::BasicBlock* check = b.GetInsertBlock();
  llvm::Function& fn = *check->getParent();
  llvm::LLVMContext& ctx = fn.getContext();
  llvm::BasicBlock* read = llvm::BasicBlock::Create(ctx, "cancel.read", &fn, rest);
  llvm::BasicBlock* stop = llvm::BasicBlock::Create(ctx, "cancel.stop", &fn, rest);
  llvm::MDBuilder md(ctx);
  llvm::LoadInst* address = b.CreateAlignedLoad(b.getInt64Ty(), flag_address, llvm::Align(8), "cancel.flag.address");
  address->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(ctx, {}));
  b.CreateCondBr(b.CreateICmpNE(address, b.getInt64(0)), read, rest, md.createUnlikelyBranchWeights());

  b.SetInsertPoint(read);
  llvm::Value* flag = b.CreateIntToPtr(address, llvm::PointerType::get(ctx, kGlobalAddressSpace));
  // The host writes the flag while the kernel runs: a volatile load (PTX
  // ld.volatile, relaxed at system scope) reads it from L2 each time.
  llvm::Value* raised = b.CreateAlignedLoad(b.getInt32Ty(), flag, llvm::Align(4), /*isVolatile=*/true, "cancel.flag");
  b.CreateCondBr(b.CreateICmpNE(raised, b.getInt32(0)), stop, rest, md.createUnlikelyBranchWeights());

  b.SetInsertPoint(stop);
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_exit, {}, {});
  b.CreateUnreachable();
  return {check, read};
}

}  // namespace cuhost::codegen
